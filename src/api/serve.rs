//! The JSON-lines protocol of `stakeraid serve`: one [`Request`] per input
//! line, one [`Response`] per request, in request order unless
//! [`ServeOptions::unordered`].
//!
//! One thread reads requests (so that a `stop` is seen while searches
//! run), at most [`READ_AHEAD`] ahead of the answers; the serving thread
//! starts the searches side by side within a thread and a table budget
//! (as [`crate::api::Sharing`] shares them: a lone request gets every
//! core, a queue of them one core each) and writes the answers. A `stop`
//! sets the stop flag of every search not yet answered, queued or
//! running; each of those still answers, with the deepest completed
//! iteration (depth 1 at least), and then the stop itself is
//! acknowledged.
//!
//! The end of the input changes no answer: the searches not yet answered
//! run to their own limits and answer, and then serving ends, as a Unix
//! filter ends. Stopping early is what a `stop` request, a request's
//! `time_ms` and the `interrupt` flag of [`serve_until`] (set by the
//! command on SIGINT or SIGTERM) are for.
//!
//! ```
//! use stakeraid::serve::{serve, Response};
//!
//! let requests = concat!(
//!     r#"{"id": 1, "input": "3\nMINIMAX\nO\n2\n1 8 23\n5 42 12\n26 30 9\nX..\n...\n...\n"}"#, "\n",
//!     "not json\n",
//! );
//! let mut out = Vec::new();
//! serve(std::io::Cursor::new(requests), &mut out)?;
//! let replies: Vec<Response> = String::from_utf8(out)?
//!     .lines()
//!     .map(serde_json::from_str)
//!     .collect::<Result<_, _>>()?;
//! assert_eq!(replies[0].analysis.as_ref().unwrap().best.to_string(), "B3 Stake");
//! assert!(!replies[1].ok && replies[1].id.is_null());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::io::{self, BufRead, Write};
use std::ops::RangeInclusive;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::Duration;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

use crate::api::lines::{read_line, Line};
use crate::api::sharing::Runners;
use crate::api::{Analysis, ApiError, Grid, Limits, Position, SearchMode, Sharing, MAX_THREADS};
use crate::text::{parse_problem, Question};

/// The longest request line served, in bytes (1 MiB), its line end not
/// counted. A longer line is read through without being held, and answered
/// with an error.
pub const MAX_REQUEST_BYTES: usize = 1 << 20;

/// One request line.
///
/// ```json
/// {"id": 7, "input": "<the text of an input.txt>", "time_ms": 500}
/// {"id": 8, "position": {"values": [[..]], "cells": [".."], "player": "X"},
///  "mode": "MINIMAX", "depth": 3, "threads": 2}
/// {"id": 9, "cmd": "stop"}
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Request {
    /// Any JSON value; the response echoes it.
    #[serde(default)]
    pub id: Value,
    /// `"search"` (the default) or `"stop"`.
    #[serde(default)]
    pub cmd: Cmd,
    /// The position as the text of an `input.txt`; its mode and depth
    /// apply unless `mode` / `depth` are given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input: Option<String>,
    /// The position as a grid (instead of `input`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<Grid>,
    /// `"MINIMAX"` or `"ALPHABETA"` (default: the input's, else ALPHABETA).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<SearchMode>,
    /// Cut-off depth, 1 to `u32::MAX`.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "depth"
    )]
    pub depth: Option<u32>,
    /// Wall-time budget in milliseconds, counted from when the search
    /// starts (behind other requests it may first wait for threads).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "time_ms"
    )]
    pub time_ms: Option<u64>,
    /// Worker threads, 0 (the default) to [`MAX_THREADS`]: the server's
    /// budget at most, and by default every free thread for a lone request,
    /// one for each of many waiting (see [`crate::api::Sharing`]).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "threads"
    )]
    pub threads: Option<usize>,
}

/// What a request asks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Cmd {
    /// Analyse a position.
    #[default]
    Search,
    /// Stop every search not yet answered.
    Stop,
}

impl<'de> Deserialize<'de> for Cmd {
    /// `"search"` or `"stop"`; anything else is refused naming both, where
    /// serde would speak of variants.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Cmd, D::Error> {
        let value = Value::deserialize(d)?;
        match value.as_str() {
            Some("search") => Ok(Cmd::Search),
            Some("stop") => Ok(Cmd::Stop),
            _ => Err(D::Error::custom(format!(
                "unknown cmd {value} (expected \"search\" or \"stop\")"
            ))),
        }
    }
}

/// One response line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Response {
    /// The request's `id` (`null` when the line was not JSON).
    pub id: Value,
    /// False for a refused request.
    pub ok: bool,
    /// A search's result.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub analysis: Option<Analysis>,
    /// Why the request was refused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// For a stop: how many searches were still unanswered when it was read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interrupted: Option<usize>,
}

impl Response {
    fn error(id: Value, error: impl std::fmt::Display) -> Response {
        Response {
            id,
            ok: false,
            analysis: None,
            error: Some(error.to_string()),
            interrupted: None,
        }
    }
}

/// `depth`: a whole number from 1 to `u32::MAX`.
fn depth<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
    in_range(
        d,
        "depth",
        &format!("1 to {}", u32::MAX),
        1..=u32::MAX.into(),
    )
}

/// `time_ms`: a whole number of milliseconds, 0 or more; one past what a
/// `u64` holds (half a billion years) is as good as no limit.
fn time_ms<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    in_range(
        d,
        "time_ms",
        "a whole number of milliseconds, 0 or more",
        0..=u64::MAX,
    )
}

/// `threads`: 0 (one per core) up to the cap the command line sets.
fn threads<'de, D: Deserializer<'de>>(d: D) -> Result<Option<usize>, D::Error> {
    let range = format!("0 (one per core) to {MAX_THREADS}");
    in_range(d, "threads", &range, 0..=MAX_THREADS as u64)
}

/// A whole number in `range` (null: none given); anything else is refused
/// with the range in words (`says`), as the command line and Python refuse
/// it, where serde would name only the type it expected.
fn in_range<'de, D: Deserializer<'de>, T: TryFrom<u64>>(
    d: D,
    name: &str,
    says: &str,
    range: RangeInclusive<u64>,
) -> Result<Option<T>, D::Error> {
    let Some(value) = Option::<Value>::deserialize(d)? else {
        return Ok(None);
    };
    // A whole number written as a float (`3.0`, `1e3`, as some JSON
    // writers write numbers) is that number; past a u64 it saturates.
    let whole = value.as_u64().or_else(|| {
        let f = value.as_f64()?;
        (f >= 0.0 && f.fract() == 0.0).then_some(f as u64)
    });
    let n = whole.filter(|n| range.contains(n));
    n.and_then(|n| T::try_from(n).ok())
        .map(Some)
        .ok_or_else(|| D::Error::custom(format!("{name} must be {says}, got {value}")))
}

/// Why a request was refused; every refusal starts with `bad request:`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RequestError {
    /// The line is not UTF-8 JSON of a request.
    #[error("bad request: {0}")]
    Json(String),
    /// The line is empty or only spaces: answered all the same, so that a
    /// client can count one reply per line it sent.
    #[error("bad request: empty line: a request is a JSON object, {{...}}")]
    Empty,
    /// The line is longer than [`MAX_REQUEST_BYTES`].
    #[error("bad request: longer than {MAX_REQUEST_BYTES} bytes")]
    TooLong,
    /// Both `input` and `position`.
    #[error("bad request: give the position as \"input\" or as \"position\", not both")]
    TwoPositions,
    /// Neither `input` nor `position`.
    #[error("bad request: no position: give \"input\" (the text of an input.txt) or \"position\"")]
    NoPosition,
    /// An `input` of a mode with no exact answer (COMPETITION: one move
    /// under the player's CPU clock, which a server running other searches
    /// cannot charge) and no `mode` to analyse its position in.
    #[error("bad request: {0} mode has no exact answer: give \"mode\" (MINIMAX or ALPHABETA) to analyse its position")]
    NotExact(&'static str),
    /// The position or the limits are refused.
    #[error("bad request: {0}")]
    Api(#[from] ApiError),
}

impl Request {
    /// The position and limits this search request asks for (with no stop flag).
    pub fn search(&self) -> Result<(Position, Limits), RequestError> {
        let (position, mode, depth) = match (&self.input, &self.position) {
            (Some(_), Some(_)) => return Err(RequestError::TwoPositions),
            (None, None) => return Err(RequestError::NoPosition),
            (None, Some(grid)) => (
                Position::from_grid(grid).map_err(ApiError::from)?,
                None,
                None,
            ),
            (Some(text), None) => {
                let problem = parse_problem(text.as_bytes()).map_err(ApiError::from)?;
                let position = Position::from_problem(&problem).map_err(ApiError::from)?;
                match problem.question {
                    Question::Exact { mode, depth } => (position, Some(mode), Some(depth)),
                    // A competition input says nothing exact: the request must.
                    Question::Competition { .. } if self.mode.is_none() => {
                        return Err(RequestError::NotExact(problem.question.name()))
                    }
                    Question::Competition { .. } => (position, None, None),
                }
            }
        };
        let limits = Limits {
            mode: self.mode.or(mode).unwrap_or_default(),
            depth: self.depth.or(depth),
            time: self.time_ms.map(Duration::from_millis),
            threads: self.threads.unwrap_or(0),
            ..Limits::default()
        };
        limits.check()?;
        Ok((position, limits))
    }
}

/// How `serve` runs its searches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ServeOptions {
    /// The threads and the tables of the searches in flight together
    /// (default: one thread per core, [`crate::api::DEFAULT_TABLE_BYTES`]).
    pub sharing: Sharing,
    /// Write each answer as soon as it is ready rather than in request
    /// order (the `id` tells which request it answers). A stop's
    /// acknowledgement still comes after the answers of the searches it
    /// stopped.
    pub unordered: bool,
}

/// The most requests read and not yet answered: past them, the server
/// reads no further until one is answered, so that a client piping in a
/// million positions holds a bounded number in memory (the tables only
/// of those running). A `stop` behind them waits its turn to be read.
pub const READ_AHEAD: usize = 1024;

/// A request on its way to the serving thread.
enum Job {
    /// Already answered by the reader: an error or a stop's acknowledgement.
    Reply(Response),
    /// A search to run; `limits.stop` is its stop flag.
    Search {
        id: Value,
        // Boxed: a board is large beside a reply.
        position: Box<Position>,
        limits: Limits,
    },
}

/// What the reader hands the serving thread.
enum Event {
    /// The next request read, in input order.
    Read(Job),
    /// The input has ended (or failed): no `Read` follows.
    InputEnd(io::Result<()>),
}

/// How often an interrupt is looked for while a search runs or the input
/// is idle: quick enough for a person, rare enough to cost nothing.
const INTERRUPT_POLL: Duration = Duration::from_millis(20);

/// The stop flags of searches sent but maybe not yet answered, shared by
/// the reader (a `stop` request) and the interrupt watcher.
type Unanswered = Mutex<Vec<Arc<AtomicBool>>>;

/// Serves requests from `input` until it ends, writing one response line
/// per request to `output` and flushing each: every line gets one, a blank
/// one or one longer than [`MAX_REQUEST_BYTES`] an error. The searches run
/// side by side as [`ServeOptions::default`] shares the cores.
/// Returns when every request is answered, or on the first write error.
pub fn serve<R, W>(input: R, output: W) -> io::Result<()>
where
    R: BufRead + Send + 'static,
    W: Write + Send,
{
    serve_until(input, output, &AtomicBool::new(false))
}

/// [`serve`], until `interrupt` is set (from any thread, or a signal
/// handler): then every search not yet answered is stopped as a `stop`
/// request stops it and answers, and this returns without reading more of
/// the input.
pub fn serve_until<R, W>(input: R, output: W, interrupt: &AtomicBool) -> io::Result<()>
where
    R: BufRead + Send + 'static,
    W: Write + Send,
{
    serve_with(input, output, interrupt, &ServeOptions::default())
}

/// [`serve_until`] with the searches run and answered as `options` say.
pub fn serve_with<R, W>(
    input: R,
    output: W,
    interrupt: &AtomicBool,
    options: &ServeOptions,
) -> io::Result<()>
where
    R: BufRead + Send + 'static,
    W: Write + Send,
{
    let (events, inbox) = mpsc::channel();
    let unanswered: Arc<Unanswered> = Arc::default();
    let window = Arc::new(Window::new(READ_AHEAD));
    // Not a scoped thread: after a write error or an interrupt the reader
    // may still be blocked on its input, and must not keep the caller
    // waiting.
    {
        let (unanswered, window) = (unanswered.clone(), window.clone());
        std::thread::spawn(move || {
            let read = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                read_jobs(input, &events, &unanswered, &window)
            }))
            .unwrap_or_else(|_| Err(io::Error::other("the request reader panicked")));
            let _ = events.send(Event::InputEnd(read));
        });
    }
    let answers = Mutex::new(Answers {
        output,
        unordered: options.unordered,
        unwritten: BTreeSet::new(),
        held: BTreeMap::new(),
        flags: HashMap::new(),
        window: &window,
        failed: None,
    });
    let runners = Runners::new(&options.sharing);
    // Read after the interrupt watcher's last sweep: stopped from the start.
    let on_start = |limits: &Limits| {
        if interrupt.load(Relaxed) {
            if let Some(flag) = &limits.stop {
                flag.store(true, Relaxed);
            }
        }
    };
    let deliver = |(number, id): (u64, Value), answer: Result<Analysis, ApiError>| {
        let response = match answer {
            Ok(analysis) => Response {
                id,
                ok: true,
                analysis: Some(analysis),
                error: None,
                interrupted: None,
            },
            Err(e) => Response::error(id, RequestError::Api(e)),
        };
        // Written out before the lock: the other runners go on meanwhile.
        let line = line_of(&response);
        lock(&answers).answer(number, line, false);
    };
    let served = std::thread::scope(|scope| {
        if runners.run(scope, &on_start, &deliver, usize::MAX) == 0 {
            runners.close();
            return Err(io::Error::other("cannot start a search thread"));
        }
        let served = dispatch(&inbox, &runners, &answers, interrupt, &unanswered, &window);
        runners.close();
        served
    });
    // The reader, if still waiting for room, reads no more.
    window.close();
    let failed = answers
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner)
        .failed;
    match failed {
        Some(e) => Err(e),
        None => served,
    }
}

/// A response as the line written, its line end included.
fn line_of(response: &Response) -> Vec<u8> {
    // A response holds strings, numbers and moves only: it always
    // serializes.
    let mut line = serde_json::to_vec(response).unwrap_or_default();
    line.push(b'\n');
    line
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Hands the requests read to the runners (searches) or to the answers
/// (replies), until the input has ended and every request is answered;
/// once `interrupt` is set, until those read are answered; after a write
/// error, until the searches running have stopped. Returns the input's
/// error, if any.
fn dispatch<W: Write>(
    inbox: &mpsc::Receiver<Event>,
    runners: &Runners<(u64, Value)>,
    answers: &Mutex<Answers<W>>,
    interrupt: &AtomicBool,
    unanswered: &Unanswered,
    window: &Window,
) -> io::Result<()> {
    let mut read = 0u64;
    let mut input = Ok(());
    // Until the input ends or an interrupt or a failed write stops reading.
    loop {
        // A runner's panic (under unwinding) too: it reaches the caller
        // once the searches running stop.
        if interrupt.load(Relaxed) || lock(answers).failed.is_some() || runners.failed() {
            stop_all(unanswered);
            window.close();
            break;
        }
        match inbox.recv_timeout(INTERRUPT_POLL) {
            Ok(Event::Read(job)) => take(job, &mut read, runners, answers),
            Ok(Event::InputEnd(end)) => {
                input = end;
                break;
            }
            Err(_) => continue,
        }
    }
    // What was read already is still answered.
    while let Ok(Event::Read(job)) = inbox.try_recv() {
        take(job, &mut read, runners, answers);
    }
    runners.close();
    let mut stopped = false;
    while !runners.wait_idle(INTERRUPT_POLL) {
        if interrupt.load(Relaxed) {
            // Searches running see an interrupt only through their flags.
            stop_all(unanswered);
        }
        if !stopped && (lock(answers).failed.is_some() || runners.failed()) {
            // Nothing more can be answered: stop what runs, start nothing.
            stop_all(unanswered);
            runners.drop_queued();
            stopped = true;
        }
    }
    input
}

/// Takes in the next request read: a search queued, a reply answered.
fn take<W: Write>(
    job: Job,
    read: &mut u64,
    runners: &Runners<(u64, Value)>,
    answers: &Mutex<Answers<W>>,
) {
    let number = *read;
    *read += 1;
    let mut answers = lock(answers);
    answers.unwritten.insert(number);
    match job {
        Job::Reply(response) => {
            // A stop's acknowledgement comes after the answers of the
            // searches read before it, in either order.
            let after_earlier = response.interrupted.is_some();
            answers.answer(number, line_of(&response), after_earlier);
        }
        Job::Search {
            id,
            position,
            limits,
        } => {
            if let Some(flag) = &limits.stop {
                answers.flags.insert(number, flag.clone());
            }
            drop(answers);
            runners.push((number, id), position, limits);
        }
    }
}

/// The answers not yet written, and the order they go out in.
struct Answers<'w, W> {
    output: W,
    unordered: bool,
    /// The requests read and not yet answered, by number.
    unwritten: BTreeSet<u64>,
    /// Answers (their lines) waiting for an earlier one to be written.
    held: BTreeMap<u64, Vec<u8>>,
    /// The stop flags of the searches not yet answered: a stop read until
    /// their answer is written counts them as unanswered.
    flags: HashMap<u64, Arc<AtomicBool>>,
    window: &'w Window,
    /// The first failed write: nothing is written after it.
    failed: Option<io::Error>,
}

impl<W: Write> Answers<'_, W> {
    /// Writes the answer to request `number` (its `line`) now if it may
    /// go now, and then those held that it let go. Unless `after_earlier`,
    /// an answer goes at once when the answers are unordered.
    fn answer(&mut self, number: u64, line: Vec<u8>, after_earlier: bool) {
        if self.unordered && !after_earlier {
            self.write(number, &line);
        } else {
            self.held.insert(number, line);
        }
        while let Some(&first) = self.unwritten.first() {
            match self.held.remove(&first) {
                Some(line) => self.write(first, &line),
                None => break,
            }
        }
    }

    fn write(&mut self, number: u64, line: &[u8]) {
        if self.failed.is_none() {
            let written = self
                .output
                .write_all(line)
                .and_then(|()| self.output.flush());
            self.failed = written.err().map(|e| said("writing the answers", e));
        }
        self.unwritten.remove(&number);
        self.flags.remove(&number);
        self.window.leave();
    }
}

/// `e`, its message saying what was being done.
fn said(doing: &str, e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("{doing}: {e}"))
}

/// The room for requests read and not yet answered ([`READ_AHEAD`]).
/// A full window lets the reader go on only once half of it is free, so
/// that a long batch does not wake the reader for every answer.
struct Window {
    /// Requests in the window, and whether it is closed.
    state: Mutex<(usize, bool)>,
    changed: Condvar,
    size: usize,
}

impl Window {
    fn new(size: usize) -> Window {
        Window {
            state: Mutex::new((0, false)),
            changed: Condvar::new(),
            size,
        }
    }

    /// Waits for room for one more request; false once closed.
    fn enter(&self) -> bool {
        let mut state = lock(&self.state);
        if state.0 >= self.size {
            while state.0 > self.size / 2 && !state.1 {
                state = self
                    .changed
                    .wait(state)
                    .unwrap_or_else(PoisonError::into_inner);
            }
        }
        state.0 += 1;
        !state.1
    }

    /// A request answered.
    fn leave(&self) {
        let mut state = lock(&self.state);
        state.0 = state.0.saturating_sub(1);
        if state.0 == self.size / 2 {
            self.changed.notify_all();
        }
    }

    /// No more requests are to be read.
    fn close(&self) {
        lock(&self.state).1 = true;
        self.changed.notify_all();
    }
}

/// Sets the stop flag of every search not yet answered, and returns how
/// many there were.
fn stop_all(unanswered: &Unanswered) -> usize {
    let mut unanswered = lock(unanswered);
    // A flag no one else holds belongs to an answered search.
    unanswered.retain(|flag| Arc::strong_count(flag) > 1);
    for flag in unanswered.iter() {
        flag.store(true, Relaxed);
    }
    let stopped = unanswered.len();
    unanswered.clear();
    stopped
}

/// Reads lines into jobs until the input ends (or fails), the server is
/// gone, or the window is closed.
fn read_jobs<R: BufRead>(
    mut input: R,
    events: &Sender<Event>,
    unanswered: &Unanswered,
    window: &Window,
) -> io::Result<()> {
    let mut line = Vec::new();
    loop {
        if !window.enter() {
            return Ok(());
        }
        let read = read_line(&mut input, &mut line, MAX_REQUEST_BYTES);
        let job = match read.map_err(|e| said("reading the requests", e))? {
            Line::End => return Ok(()),
            Line::TooLong => Job::Reply(Response::error(Value::Null, RequestError::TooLong)),
            Line::Whole => request_job(&line, unanswered),
        };
        if events.send(Event::Read(job)).is_err() {
            return Ok(());
        }
    }
}

/// The job of one whole line.
fn request_job(line: &[u8], unanswered: &Unanswered) -> Job {
    match std::str::from_utf8(line) {
        Ok(text) if text.trim().is_empty() => {
            Job::Reply(Response::error(Value::Null, RequestError::Empty))
        }
        Ok(text) => job_of(text, unanswered),
        Err(_) => Job::Reply(Response::error(
            Value::Null,
            RequestError::Json("not UTF-8 text".into()),
        )),
    }
}

fn job_of(text: &str, unanswered: &Unanswered) -> Job {
    // The id first, so that a request with bad fields is answered by id.
    let value: Value = match serde_json::from_str(text) {
        Ok(Value::Object(fields)) => Value::Object(fields),
        Ok(_) => {
            return Job::Reply(Response::error(
                Value::Null,
                RequestError::Json("a request is a JSON object, {...}".into()),
            ))
        }
        Err(e) => {
            return Job::Reply(Response::error(
                Value::Null,
                RequestError::Json(json_error(&e)),
            ))
        }
    };
    let id = value.get("id").cloned().unwrap_or(Value::Null);
    let request = match request_of(value) {
        Ok(r) => r,
        Err(e) => return Job::Reply(Response::error(id, e)),
    };
    match request.cmd {
        Cmd::Stop => Job::Reply(Response {
            id,
            ok: true,
            analysis: None,
            error: None,
            interrupted: Some(stop_all(unanswered)),
        }),
        Cmd::Search => match request.search() {
            Ok((position, mut limits)) => {
                let flag = Arc::new(AtomicBool::new(false));
                unanswered
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .push(flag.clone());
                limits.stop = Some(flag);
                Job::Search {
                    id,
                    position: Box::new(position),
                    limits,
                }
            }
            Err(e) => Job::Reply(Response::error(id, e)),
        },
    }
}

/// The request of a JSON object, or why it is none, naming the field at
/// fault (serde names the type it expected, not the field).
fn request_of(value: Value) -> Result<Request, RequestError> {
    serde_json::from_value(value.clone()).map_err(|e| {
        let fields = value.as_object().into_iter().flatten();
        let wrong = fields
            .filter(|(name, _)| name.as_str() != "id")
            .find(|(name, field)| {
                let alone = serde_json::Map::from_iter([((*name).clone(), (*field).clone())]);
                serde_json::from_value::<Request>(Value::Object(alone)).is_err()
            });
        RequestError::Json(match wrong {
            Some((name, _)) if !json_error(&e).contains(name.as_str()) => {
                format!("\"{name}\": {}", json_error(&e))
            }
            _ => json_error(&e),
        })
    })
}

/// Why a line is not a request, in words for a person: where the text
/// stops being JSON, or which field is wrong, without the parser's names
/// for its tokens.
fn json_error(e: &serde_json::Error) -> String {
    use serde_json::error::Category;
    match e.classify() {
        Category::Syntax => format!("not valid JSON (at column {})", e.column()),
        Category::Eof => "not valid JSON: the line ends inside a value".into(),
        Category::Io => "not readable".into(),
        Category::Data => {
            let text = e.to_string();
            // A value's error names no place in the line: the field does.
            let text = match text.rfind(" at line ") {
                Some(at) => &text[..at],
                None => &text,
            };
            ["u32", "u64", "usize"]
                .iter()
                .fold(text.to_string(), |t, int| {
                    t.replace(&format!("expected {int}"), "expected a whole number")
                })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const INPUT: &str = "3\nMINIMAX\nO\n2\n1 8 23\n5 42 12\n26 30 9\nX..\n...\n...\n";

    fn request(json: &str) -> Result<(Position, Limits), RequestError> {
        serde_json::from_str::<Request>(json).unwrap().search()
    }

    #[test]
    fn requests_take_the_input_limits_unless_overridden() {
        let text = serde_json::to_string(INPUT).unwrap();
        let (_, limits) = request(&format!(r#"{{"input": {text}}}"#)).unwrap();
        assert_eq!(
            (limits.mode, limits.depth, limits.time),
            (SearchMode::Minimax, Some(2), None)
        );
        let (_, limits) = request(&format!(
            r#"{{"input": {text}, "mode": "alphabeta", "depth": 5, "time_ms": 9}}"#
        ))
        .unwrap();
        assert_eq!(
            (limits.mode, limits.depth, limits.time),
            (
                SearchMode::AlphaBeta,
                Some(5),
                Some(Duration::from_millis(9))
            )
        );
        let competition =
            serde_json::to_string(&INPUT.replace("MINIMAX\nO\n2", "COMPETITION\nO\n2.5")).unwrap();
        assert_eq!(
            request(&format!(r#"{{"input": {competition}}}"#)).unwrap_err(),
            RequestError::NotExact("COMPETITION")
        );
        let (_, limits) = request(&format!(
            r#"{{"input": {competition}, "mode": "MINIMAX", "time_ms": 5}}"#
        ))
        .unwrap();
        assert_eq!(
            (limits.depth, limits.time),
            (None, Some(Duration::from_millis(5)))
        );
    }

    #[test]
    fn bad_requests_are_refused_by_kind() {
        let grid = r#"{"values": [[1]], "cells": ["."], "player": "X"}"#;
        assert_eq!(request("{}").unwrap_err(), RequestError::NoPosition);
        assert_eq!(
            request(&format!(r#"{{"position": {grid}, "input": "1"}}"#)).unwrap_err(),
            RequestError::TwoPositions
        );
        assert_eq!(
            request(&format!(r#"{{"position": {grid}}}"#)).unwrap_err(),
            ApiError::NoLimit.into()
        );
        let zero =
            serde_json::from_str::<Request>(&format!(r#"{{"position": {grid}, "depth": 0}}"#));
        assert!(
            zero.unwrap_err()
                .to_string()
                .contains("depth must be 1 to 4294967295, got 0"),
            "a depth out of range is refused with the range"
        );
        assert!(request(&format!(r#"{{"position": {grid}, "depth": 1}}"#)).is_ok());
        let whole = serde_json::from_str::<Request>(r#"{"depth": 3.0, "time_ms": 1e3}"#).unwrap();
        assert_eq!(
            (whole.depth, whole.time_ms),
            (Some(3), Some(1000)),
            "a whole number written as a float is that number"
        );
        let long = serde_json::from_str::<Request>(r#"{"time_ms": 1e30}"#).unwrap();
        assert_eq!(long.time_ms, Some(u64::MAX), "past a u64, no limit");
        assert!(
            serde_json::from_str::<Request>(r#"{"depht": 3}"#).is_err(),
            "unknown fields are refused"
        );
    }
}
