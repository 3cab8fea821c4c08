//! Reading inputs and writing outputs, `-` meaning the standard streams.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::Arc;

use anyhow::Context;
use stakeraid::store::Store;

/// The most an input may hold: a 26x26 board's input.txt, values of ten
/// digits and a sign, is about 9 KiB. Parsing a text costs several times
/// its size, so a file of hundreds of MiB given by mistake is refused
/// before it is read whole.
pub const MAX_INPUT_BYTES: u64 = 1 << 20;

/// The bytes of `path`, or of standard input for `-`; refused past
/// [`MAX_INPUT_BYTES`].
pub fn read_input(path: &Path) -> anyhow::Result<Vec<u8>> {
    let name = if path == Path::new("-") {
        "standard input".to_owned()
    } else {
        path.display().to_string()
    };
    read_bytes(path).with_context(|| format!("reading {name}"))
}

/// [`read_input`], its errors not naming the input.
pub fn read_bytes(path: &Path) -> anyhow::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    if path == Path::new("-") {
        std::io::stdin()
            .lock()
            .take(MAX_INPUT_BYTES + 1)
            .read_to_end(&mut bytes)?;
    } else {
        std::fs::File::open(path)?
            .take(MAX_INPUT_BYTES + 1)
            .read_to_end(&mut bytes)?;
    }
    anyhow::ensure!(
        bytes.len() as u64 <= MAX_INPUT_BYTES,
        "over {} KiB, more than any input (a 26x26 board's is about 9 KiB)",
        MAX_INPUT_BYTES >> 10
    );
    Ok(bytes)
}

/// Writes `text` to standard output and flushes it. A failed write (a full
/// disk, a closed file) is an error to report; a reader that has gone
/// (`| head`) ends the program quietly through SIGPIPE before this returns.
pub fn print(text: &str) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .context("writing standard output")
}

/// A line of a trace on standard output: a failed write ends the trace,
/// not the games; the report at the end says whether output works.
pub fn trace(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
}

/// Writes `bytes` to `path` (standard output for `-`) through a temporary
/// file in the same folder and renames it into place, so a reader never
/// sees a half-written output and a failed run leaves any earlier output
/// untouched. An error names `path` as the user gave it.
pub fn write_output(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    write_output_synced(path, bytes, true)
}

/// [`write_output`], the file flushed to the disk before it is renamed
/// into place only if `sync`: without, a reader or a killed run still never
/// sees it half-written, and only a power cut can lose it. A batch of
/// thousands of small outputs skips it: each flush costs a disk write.
pub fn write_output_synced(path: &Path, bytes: &[u8], sync: bool) -> anyhow::Result<()> {
    let _writing = writing();
    if path == Path::new("-") {
        let mut out = std::io::stdout().lock();
        return out
            .write_all(bytes)
            .and_then(|()| out.flush())
            .context("writing standard output");
    }
    let writing = || format!("writing {}", path.display());
    // Devices and pipes (`/dev/null`, a FIFO) are written in place: renaming
    // over them would replace the device with a plain file.
    if is_device(path) {
        return std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .and_then(|mut f| f.write_all(bytes))
            .with_context(writing);
    }
    // A link stays a link: the file it names is the one replaced.
    let target = resolve_links(path).with_context(writing)?;
    // A random name, made exclusively, and removed if anything fails.
    let mut tmp =
        stakeraid::temp_file::beside(&target, ".stakeraid-output-").with_context(writing)?;
    // Through the file itself: the temporary file's own writes name its
    // path in their errors, a name the user never gave.
    tmp.as_file_mut()
        .write_all(bytes)
        .and_then(|()| match sync {
            true => tmp.as_file().sync_all(),
            false => Ok(()),
        })
        .with_context(writing)?;
    tmp.persist(&target)
        .map(drop)
        .map_err(|e| e.error)
        .with_context(writing)
}

/// The file that writing to `path` reaches: `path` itself, or the end of
/// its chain of symbolic links (which need not exist yet).
fn resolve_links(path: &Path) -> std::io::Result<PathBuf> {
    // As many links as Linux follows before it gives up (ELOOP).
    const MAX_LINKS: usize = 40;
    let mut path = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match std::fs::symlink_metadata(&path) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let target = std::fs::read_link(&path)?;
                // A relative target is relative to the link's folder.
                path = match path.parent() {
                    Some(dir) => dir.join(target),
                    None => target,
                };
            }
            _ => return Ok(path),
        }
    }
    Err(std::io::Error::other("too many levels of symbolic links"))
}

/// Fails unless the report can be written to `path`, so that a match is
/// not played only to lose its report: the file is opened when it is a
/// device or pipe, and otherwise the temporary file the report will be
/// written through is made and removed.
pub fn check_writable(path: &Path) -> anyhow::Result<()> {
    use std::os::unix::fs::FileTypeExt;
    let cannot = || format!("cannot write the report to {}", path.display());
    if is_device(path) {
        // A pipe is not opened now: its reader would see it end before the
        // report comes.
        if !std::fs::metadata(path).is_ok_and(|m| m.file_type().is_fifo()) {
            std::fs::OpenOptions::new()
                .write(true)
                .open(path)
                .with_context(cannot)?;
        }
        return Ok(());
    }
    let target = resolve_links(path).with_context(cannot)?;
    if std::fs::metadata(&target).is_ok_and(|m| m.is_dir()) {
        anyhow::bail!("{}: it is a folder", cannot());
    }
    // Made and removed at once: the folder takes new files.
    stakeraid::temp_file::beside(&target, ".stakeraid-output-").with_context(cannot)?;
    Ok(())
}

/// Whether `path`, its links followed by the system, is a device or a pipe
/// (`/dev/null`, `/dev/stdout`, a FIFO): written in place. The system
/// rather than [`resolve_links`] follows them, since some links, as
/// `/dev/stdout`'s `/proc/self/fd/1`, name no path.
fn is_device(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

/// Writes `text` to standard output; a reader that has gone (`| head`)
/// is not an error.
pub fn write_stdout(text: &str) -> anyhow::Result<()> {
    let _writing = writing();
    match std::io::stdout().write_all(text.as_bytes()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(e).context("writing standard output")
        }
        _ => Ok(()),
    }
}

/// Set when the signal handler is to clear the progress line first
/// (standard error is a terminal showing one).
static CLEAR_LINE: AtomicBool = AtomicBool::new(false);

/// The signal the program is ending on, while a thread of its own tidies
/// up before raising it again (a stored solve sealing its store, the
/// grader removing its folders); 0 until one comes.
static SIGNALLED: AtomicI32 = AtomicI32::new(0);

/// Whether a stored solve has ended on its own: taken by the solve to
/// finish its store and write its output, and by [`seal_on_signal`] to
/// seal the store and end the program, so that only one of them does.
static FINISHED: parking_lot::Mutex<bool> = parking_lot::Mutex::new(false);

/// For a stored solve whose search has ended: the right to finish the
/// store and write the output, held until they are done, so that a signal
/// meanwhile neither seals the store again nor says that no output was
/// written. If a signal came first, the program is ending on it (its line
/// says no output is written): this waits for that end.
pub fn finish_unsignalled() -> parking_lot::MutexGuard<'static, bool> {
    let mut finished = FINISHED.lock();
    if SIGNALLED.load(Ordering::SeqCst) != 0 {
        drop(finished);
        park_for_good();
    }
    *finished = true;
    finished
}

/// Set where a signal's end is left to a thread ([`on_signal_then`],
/// [`end_on_signal`]), which nothing else may outrun.
static HOLD_ON_SIGNAL: AtomicBool = AtomicBool::new(false);

/// Once a signal has come to a program whose end it leaves to a thread
/// (which tidies up, then ends it), this waits for that end, so that
/// nothing is written, and no exit status given, meanwhile. Returns at
/// once otherwise, and always in a stored solve, whose output is written
/// if the solve ended before the signal.
pub fn hold_if_ending() {
    if ending() {
        park_for_good();
    }
}

/// Whether a signal has come whose end a thread is seeing to.
fn ending() -> bool {
    HOLD_ON_SIGNAL.load(Ordering::SeqCst) && SIGNALLED.load(Ordering::SeqCst) != 0
}

/// Held while an output is written, so that a signal's end waits for a
/// write under way (a second at most: a write to a pipe nobody reads
/// would wait for ever) rather than cut it short.
static WRITING: parking_lot::Mutex<()> = parking_lot::const_mutex(());

/// The right to write an output: [`hold_if_ending`], then [`WRITING`].
fn writing() -> parking_lot::MutexGuard<'static, ()> {
    let writing = WRITING.lock();
    if ending() {
        drop(writing);
        park_for_good();
    }
    writing
}

fn park_for_good() -> ! {
    loop {
        std::thread::park();
    }
}

/// The handler that ends the program: every program being run killed
/// (their process groups, see [`stakeraid::referee::kill_running`]), the
/// progress line cleared if asked, the signal raised again with its
/// default disposition (the shell still sees status 130 or 143).
extern "C" fn clear_and_end(signal: libc::c_int) {
    const CLEAR: &[u8] = b"\r\x1b[2K";
    stakeraid::referee::kill_running();
    // SAFETY: write, signal and raise are async-signal-safe; CLEAR
    // outlives the call.
    unsafe {
        if CLEAR_LINE.load(Ordering::SeqCst) {
            libc::write(2, CLEAR.as_ptr().cast(), CLEAR.len());
        }
        libc::signal(signal, libc::SIG_DFL);
        libc::raise(signal);
    }
}

/// Notes the signal for [`seal_on_signal`]; a second one ends the
/// program at once.
extern "C" fn note(signal: libc::c_int) {
    if SIGNALLED.swap(signal, Ordering::SeqCst) != 0 {
        clear_and_end(signal);
    }
}

/// [`note`], every program being run killed first, and every one started
/// from now on as it starts.
extern "C" fn kill_and_note(signal: libc::c_int) {
    stakeraid::referee::kill_running();
    note(signal);
}

/// Makes `handler` the handler of SIGINT and SIGTERM; it may only make
/// async-signal-safe calls and touch atomics.
pub fn handle(handler: extern "C" fn(libc::c_int)) {
    for signal in [libc::SIGINT, libc::SIGTERM] {
        // SAFETY: the handlers only make async-signal-safe calls and touch
        // atomics.
        unsafe {
            libc::signal(signal, handler as *const () as libc::sighandler_t);
        }
    }
}

/// From now on, Ctrl-C or SIGTERM kills every program being run (at
/// once, in the handler), removes the scratch folders
/// (`stakeraid::scratch`), clears the progress line if there is one
/// (`clear_line`: standard error is a terminal showing it), then ends this
/// program as the signal would have. The folders are removed on a thread
/// of its own, as a signal handler may not; meanwhile no output is
/// written ([`hold_if_ending`]), and a second signal ends the program at
/// once.
pub fn end_on_signal(clear_line: bool) {
    CLEAR_LINE.store(clear_line, Ordering::SeqCst);
    watch_for_signal(|signal| {
        stakeraid::scratch::remove_all();
        let _writes_done = WRITING.try_lock_for(std::time::Duration::from_secs(1));
        clear_and_end(signal);
    });
    handle(kill_and_note);
}

/// For a solve: from now on, Ctrl-C or SIGTERM first clears the progress
/// line (on a `terminal`), then ends the program as the signal would have.
///
/// With a store, the program first saves the search's table beside it
/// and seals it (its log folded in, no file left beside it, no write
/// after), and says what it keeps and how to resume; that runs on a
/// thread of its own, since a signal handler may not touch SQLite.
pub fn on_signal(store: Option<Arc<Store>>, terminal: bool) {
    CLEAR_LINE.store(terminal, Ordering::SeqCst);
    match store {
        None => handle(clear_and_end),
        Some(store) => {
            std::thread::spawn(move || seal_on_signal(&store));
            handle(note);
        }
    }
}

/// From now on, Ctrl-C or SIGTERM calls `then` with the signal, on a
/// thread of its own (it may lock, allocate and print, as a signal handler
/// may not); `then` ends the program. A second signal meanwhile ends it
/// at once.
pub fn on_signal_then(then: impl FnOnce(libc::c_int) + Send + 'static) {
    watch_for_signal(then);
    handle(note);
}

/// Calls `then` with the signal [`note`] notes, on a thread of its own.
fn watch_for_signal(then: impl FnOnce(libc::c_int) + Send + 'static) {
    HOLD_ON_SIGNAL.store(true, Ordering::SeqCst);
    std::thread::spawn(move || {
        let signal = loop {
            match SIGNALLED.load(Ordering::SeqCst) {
                0 => std::thread::sleep(std::time::Duration::from_millis(20)),
                s => break s,
            }
        };
        then(signal);
    });
}

/// What a store sealed on a signal keeps, in words: its `positions` and
/// the `entries` of the table saved beside it (none: not said).
fn kept_line(path: &str, positions: u64, entries: u64) -> String {
    let proved = match positions {
        1 => "1 position".to_owned(),
        n => format!("{n} positions"),
    };
    let table = match entries {
        0 => String::new(),
        1 => " and 1 table entry".to_owned(),
        n => format!(" and {n} table entries"),
    };
    format!("the store {path} keeps {proved} proved so far{table}, and the same command resumes from there")
}

/// Waits for [`on_signal`]'s signal, then saves the search's table
/// beside `store` and seals it, says what it keeps, and ends the program
/// as the signal would have. A second signal meanwhile ends it at once.
fn seal_on_signal(store: &Store) {
    let signal = loop {
        match SIGNALLED.load(Ordering::SeqCst) {
            0 => std::thread::sleep(std::time::Duration::from_millis(20)),
            s => break s,
        }
    };
    let name = if signal == libc::SIGINT {
        "SIGINT"
    } else {
        "SIGTERM"
    };
    let finished = FINISHED.lock();
    if *finished {
        // The solve ended first: it writes its output and ends the program.
        return;
    }
    // The table first: the search goes on meanwhile, and the store takes
    // what it proves until it is sealed.
    let entries = store.save_table_now();
    let kept = match store.seal() {
        Ok(positions) => kept_line(&store.path().display().to_string(), positions, entries),
        Err(e) => {
            format!("the store could not be closed cleanly ({e}); the next run replays its log")
        }
    };
    let clear = if CLEAR_LINE.load(Ordering::SeqCst) {
        "\r\x1b[2K"
    } else {
        ""
    };
    eprintln!("{clear}stakeraid: stopped by {name}, no output written: {kept}");
    // SAFETY: restoring the default action and raising it ends the
    // process as the signal would have.
    unsafe {
        libc::signal(signal, libc::SIG_DFL);
        libc::raise(signal);
    }
}

#[cfg(test)]
mod tests {
    use super::kept_line;

    #[test]
    fn what_a_sealed_store_keeps_agrees_with_its_counts() {
        assert_eq!(
            kept_line("s.db", 1, 0),
            "the store s.db keeps 1 position proved so far, and the same command resumes from there"
        );
        assert_eq!(
            kept_line("s.db", 12, 1),
            "the store s.db keeps 12 positions proved so far and 1 table entry, and the same command resumes from there"
        );
        assert_eq!(
            kept_line("s.db", 0, 0),
            "the store s.db keeps 0 positions proved so far, and the same command resumes from there"
        );
    }
}
