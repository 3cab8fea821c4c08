//! `stakeraid grade --class DIR`: a class graded in one command, over the
//! settings `stakeraid grade` builds for one program.

use std::path::Path;

use std::sync::Arc;

use anyhow::Context;
use stakeraid::class::{
    grade_class, printable, Class, ClassSettings, Gradebook, Progress, Roster, Site, Submission,
    Tally, GATHERED, PARTIAL_BOOK,
};
use stakeraid::grade::{sh_quote, Case};

use super::io::{check_writable, on_signal_then, write_stdout};

/// Checks the class and the output folder before anything runs: the
/// download read and sorted, `out` made and writable, then a download's
/// submissions gathered into it; a file that belongs to no student is a
/// line; the roster matched to the download's site.
pub fn check_class(
    dir: &Path,
    out: &Path,
    roster: Option<&Roster>,
) -> anyhow::Result<(Vec<Submission>, Site)> {
    let class = Class::read(dir)?;
    if let Some(roster) = roster {
        roster.check_site(class.site)?;
    }
    let absolute = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_owned());
    // Inside DIR, the output would be a submission of the next run; DIR
    // inside the folder a download is gathered into would be removed.
    anyhow::ensure!(
        !absolute(out).starts_with(absolute(dir)),
        "--class-out {}: inside the class folder; give a folder outside {}",
        out.display(),
        dir.display()
    );
    anyhow::ensure!(
        !absolute(dir).starts_with(absolute(&out.join(GATHERED))),
        "--class {}: inside {}, which grading rewrites; give the download itself",
        dir.display(),
        out.join(GATHERED).display()
    );
    std::fs::create_dir_all(out.join("reports"))
        .with_context(|| format!("cannot write the gradebook to {}", out.display()))?;
    check_writable(&out.join("gradebook.csv"))?;
    for stray in &class.strays {
        eprintln!(
            "stakeraid: --class {}: {} belongs to no student ({}): left out",
            dir.display(),
            printable(stray),
            class.site
        );
    }
    let site = class.site;
    Ok((class.submissions(out)?, site))
}

/// Grades the class into `out`, a line on standard error per student, the
/// summary on standard output.
pub fn run_class(
    subs: &[Submission],
    cases: &[Case],
    settings: &ClassSettings,
    out: &Path,
    roster: Option<(&Roster, Site)>,
) -> anyhow::Result<()> {
    let tally = Arc::new(Tally::default());
    let stopping = tally.clone();
    let partial = out.join(PARTIAL_BOOK);
    on_signal_then(move |signal| {
        let (done, total) = stopping.stop();
        stakeraid::referee::kill_running();
        stakeraid::scratch::remove_all();
        eprintln!("{}", stopped_line(signal, done, total, &partial));
        std::process::exit(128 + signal);
    });
    let on_student = |p: &Progress| {
        let r = p.row;
        let what = r
            .status
            .why_not()
            .unwrap_or_else(|| format!("{} / 100", r.strict));
        let resumed = if p.resumed {
            " (from the earlier run)"
        } else {
            ""
        };
        eprintln!("[{}/{}] {}: {what}{resumed}", p.done, p.total, r.student);
    };
    let book = grade_class(subs, cases, settings, out, &tally, &on_student)
        .context("grading the class")?;
    let summary = std::fs::read_to_string(out.join("summary.txt"))
        .with_context(|| format!("reading {}", out.join("summary.txt").display()))?;
    let mut said = format!(
        "{summary}\nGradebook: {} ({} students); reports: {}\n",
        out.join("gradebook.csv").display(),
        book.rows.len(),
        out.join("reports").display()
    );
    if let Some((roster, site)) = roster {
        said += &send_back(roster, site, &book, out)?;
    }
    write_stdout(&said)?;
    Ok(())
}

/// Writes the file the course site imports into `out` (whole, never
/// half), and says what it holds: a line for each student of the roster
/// with no submission and each submission the roster has no row for.
fn send_back(roster: &Roster, site: Site, book: &Gradebook, out: &Path) -> anyhow::Result<String> {
    let import = roster.import(book, site)?;
    let path = import
        .write_into(out)
        .with_context(|| format!("cannot write {}", out.join(import.file_name).display()))?;
    let shown = roster.path().display();
    let mut said = format!(
        "Import file: {} ({} of the roster's students scored",
        path.display(),
        import.matched
    );
    if let Some(points) = import.scaled_to {
        said += &format!(", out of {points} points as the roster gives the assignment");
    }
    said += ")\n";
    for who in &import.no_submission {
        said += &format!("  no submission: {who} (in {shown})\n");
    }
    for which in &import.not_in_roster {
        said += &format!("  not in the roster: {which}\n");
    }
    for (id, names) in &import.claimed_twice {
        said += &format!(
            "  id {id} claimed by several submissions ({}): not scored\n",
            names.join(", ")
        );
    }
    Ok(said)
}

/// The one line a stopped class ends with: the signal, the students done
/// and left, where the gradebook so far is (none is written before the
/// first student is done), and the command that resumes.
fn stopped_line(signal: i32, done: usize, total: usize, partial: &Path) -> String {
    let name = if signal == libc::SIGINT {
        "SIGINT"
    } else {
        "SIGTERM"
    };
    let command: Vec<String> = std::env::args_os()
        .map(|a| sh_quote(&a.to_string_lossy()))
        .collect();
    let so_far = match done {
        0 => String::new(),
        _ => format!(" (the gradebook so far: {})", partial.display()),
    };
    format!(
        "stakeraid: stopped by {name}: {done} of {total} students graded, {} left{so_far}; \
         the same command resumes: {}",
        total - done,
        command.join(" ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stopped_line_says_what_is_done_and_left() {
        let line = stopped_line(libc::SIGINT, 8, 14, Path::new("g/gradebook.partial.csv"));
        assert!(
            line.starts_with(
                "stakeraid: stopped by SIGINT: 8 of 14 students graded, 6 left \
                 (the gradebook so far: g/gradebook.partial.csv); the same command resumes: "
            ),
            "{line}"
        );
        // Before the first student, no gradebook is written: none is named.
        let line = stopped_line(libc::SIGTERM, 0, 14, Path::new("g/gradebook.partial.csv"));
        assert!(
            line.starts_with(
                "stakeraid: stopped by SIGTERM: 0 of 14 students graded, 14 left; \
                 the same command resumes: "
            ),
            "{line}"
        );
        assert_eq!(sh_quote("Doe, Jane"), "'Doe, Jane'");
        assert_eq!(sh_quote("it's"), r"'it'\''s'");
        assert_eq!(sh_quote("--class"), "--class");
    }
}
