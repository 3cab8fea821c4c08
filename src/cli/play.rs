//! `stakeraid play`: a person against an engine in the terminal.

use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::Context;
use stakeraid::arena::{own_sum, Agent, Seat};
use stakeraid::rng::{random_board, Rng};
use stakeraid::{
    parse_problem, solve, Board, Chosen, Game, Limits, Move, Player, Problem, Question, SearchMode,
    Square, Table,
};

use super::io::read_input;

/// Arguments of `stakeraid play`.
#[derive(clap::Args)]
pub struct PlayArgs {
    #[arg(long, default_value = "comp:30", help = concat!("The engine: ", agents!()))]
    engine: Agent,
    /// Which side you play (X moves first).
    #[arg(long, default_value = "X", value_parser = ["X", "O", "x", "o"])]
    you: String,
    /// Board side for a random board.
    #[arg(long, allow_negative_numbers = true, default_value_t = 6, value_parser = clap::value_parser!(u8).range(1..=26))]
    size: u8,
    /// Seed of the random board.
    #[arg(long, allow_negative_numbers = true, default_value_t = 1)]
    seed: u64,
    /// Largest cell value of the random board.
    #[arg(long, allow_negative_numbers = true, default_value_t = 99, value_parser = clap::value_parser!(i32).range(1..))]
    max_value: i32,
    /// Start from this input.txt instead (its player moves first).
    #[arg(long)]
    input: Option<PathBuf>,
    /// Colours: auto (when standard output is a terminal), always or never.
    #[arg(long, default_value = "auto", value_parser = ["auto", "always", "never"])]
    color: String,
}

const HELP: &str = "moves: C3 stake, C3 raid   commands: undo, hint, values, help, quit";

/// Widest screen the board is drawn for: a board with its values that would
/// be wider is drawn as pieces only, with the values in a grid of their own.
const MAX_WIDTH: usize = 100;

/// Hints solve to the end of the game from this many empty cells down (a
/// few milliseconds); with more they look this many plies ahead.
const EXACT_HINT_EMPTIES: u32 = 14;
const HINT_DEPTH: u32 = 4;

/// How often the "thinking" line is redrawn.
const TICK: Duration = Duration::from_millis(100);

/// The last move as the board shows it: where it was played (`*`) and the
/// cells it turned over (`+`).
struct Marks {
    played: (usize, usize),
    flipped: Vec<(usize, usize)>,
}

impl Marks {
    fn of(game: &Game) -> Option<Marks> {
        let last = game.last_move()?;
        Some(Marks {
            played: (last.mv.row(), last.mv.col()),
            flipped: last.flipped,
        })
    }

    fn flag(marks: Option<&Marks>, cell: (usize, usize)) -> char {
        match marks {
            Some(m) if m.played == cell => '*',
            Some(m) if m.flipped.contains(&cell) => '+',
            _ => ' ',
        }
    }
}

struct Screen {
    color: bool,
}

impl Screen {
    /// Digits of the largest value on `board`.
    fn value_width(board: &Board) -> usize {
        let n = board.n();
        (0..n * n)
            .map(|i| board.value(i / n, i % n).to_string().len())
            .max()
            .unwrap_or(1)
    }

    /// True when each cell shows its value beside its piece within
    /// [`MAX_WIDTH`] columns.
    fn values_fit(board: &Board) -> bool {
        4 + board.n() * (Self::value_width(board) + 3) <= MAX_WIDTH
    }

    /// The column letters over cells `width` characters apart.
    fn header(n: usize, width: usize) -> String {
        let mut s = String::from("    ");
        for c in 0..n {
            s.push_str(&format!("{:<width$}", (b'A' + c as u8) as char));
        }
        s.truncate(s.trim_end().len());
        s.push('\n');
        s
    }

    /// The board with column letters and row numbers: each cell's owner,
    /// its value when the row fits, and the last move (`*`) and what it
    /// turned over (`+`) marked; then each side's total and a legend of
    /// the marks.
    fn draw(&self, game: &Game) -> String {
        let board = game.board();
        let n = board.n();
        let marks = Marks::of(game);
        let w = Self::value_width(board);
        let with_values = Self::values_fit(board);
        let mut s = Self::header(n, if with_values { w + 3 } else { 3 });
        for r in 0..n {
            let mut row = format!("{:>3} ", r + 1);
            for c in 0..n {
                let (mark, code) = match board.square(r, c) {
                    Square::Empty => ('.', "2"),
                    Square::Piece(Player::X) => ('X', "1;31"),
                    Square::Piece(Player::O) => ('O', "1;34"),
                };
                let flag = Marks::flag(marks.as_ref(), (r, c));
                let cell = if with_values {
                    format!("{mark}{:>w$}", board.value(r, c))
                } else {
                    mark.to_string()
                };
                if self.color {
                    // The marked cells are also shown in reverse video.
                    let code = if flag == ' ' {
                        code.to_owned()
                    } else {
                        format!("{code};7")
                    };
                    row.push_str(&format!("\x1b[{code}m{cell}\x1b[0m{flag} "));
                } else {
                    row.push_str(&format!("{cell}{flag} "));
                }
            }
            s.push_str(row.trim_end());
            s.push('\n');
        }
        s.push_str(&format!(
            "X {}  O {}",
            own_sum(board, Player::X),
            own_sum(board, Player::O)
        ));
        if let Some(last) = game.last_move() {
            s.push_str(&format!("   last: {} {} *", last.player.symbol(), last.mv));
            if !last.flipped.is_empty() {
                let cells: Vec<String> =
                    last.flipped.iter().map(|&(r, c)| cell_name(r, c)).collect();
                s.push_str(&format!(", turned {} +", cells.join(" ")));
            }
        }
        s.push('\n');
        s
    }

    /// The cell values alone, for boards drawn without them: right-aligned
    /// under their column letters, as numbers are read.
    fn values(board: &Board) -> String {
        let n = board.n();
        let w = Self::value_width(board);
        let line = |head: String, cells: Vec<String>| {
            let cells: Vec<String> = cells.iter().map(|c| format!("{c:>w$}")).collect();
            format!("{head:>3} {}\n", cells.join(" "))
        };
        let letters = (0..n).map(|c| ((b'A' + c as u8) as char).to_string());
        let mut s = line(String::new(), letters.collect());
        for r in 0..n {
            let values = (0..n).map(|c| board.value(r, c).to_string());
            s.push_str(&line((r + 1).to_string(), values.collect()));
        }
        s
    }
}

/// `"C3"` for row 2, column 2.
fn cell_name(r: usize, c: usize) -> String {
    format!("{}{}", (b'A' + c as u8) as char, r + 1)
}

/// Standard output whose errors say so: a full disk is "writing standard
/// output: No space left on device".
struct Named(std::io::Stdout);

impl Write for Named {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.write(buf).map_err(named)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush().map_err(named)
    }
}

fn named(e: std::io::Error) -> std::io::Error {
    std::io::Error::new(e.kind(), format!("writing standard output: {e}"))
}

/// Runs `work` while a line `label... 1.2 s` on `out` shows that it is
/// running and for how long, redrawn every `tick`; the line is cleared
/// when the work is done.
fn with_ticker<T: Send>(
    out: &mut (impl Write + Send),
    label: &str,
    tick: Duration,
    work: impl FnOnce() -> T + Send,
) -> T {
    let start = Instant::now();
    let (done, wait) = mpsc::channel::<()>();
    std::thread::scope(|scope| {
        let ticker = scope.spawn(move || {
            loop {
                // A closed terminal only loses the line, not the game.
                let _ = write!(
                    out,
                    "\r{label}... {:.1} s\x1b[K",
                    start.elapsed().as_secs_f64()
                );
                let _ = out.flush();
                if wait.recv_timeout(tick) != Err(mpsc::RecvTimeoutError::Timeout) {
                    break;
                }
            }
            let _ = write!(out, "\r\x1b[K");
            let _ = out.flush();
        });
        let result = work();
        let _ = done.send(());
        let _ = ticker.join();
        result
    })
}

/// Runs the game on standard input and output.
pub fn run_play(args: &PlayArgs) -> anyhow::Result<()> {
    let (start, first) = match &args.input {
        Some(path) => {
            let bytes = read_input(path)?;
            let problem = parse_problem(&bytes).with_context(|| path.display().to_string())?;
            (problem.board, problem.player)
        }
        None => {
            let mut rng = Rng::new(args.seed);
            (
                random_board(&mut rng, args.size.into(), args.max_value, 0.0),
                Player::X,
            )
        }
    };
    let you = if args.you.eq_ignore_ascii_case("x") {
        Player::X
    } else {
        Player::O
    };
    let color = match args.color.as_str() {
        "always" => true,
        "never" => false,
        _ => std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
    };
    let screen = Screen { color };
    // The thinking line redraws itself, which only a terminal shows well.
    let live = std::io::stdout().is_terminal();
    let mut seat = Seat::new(&args.engine, args.seed, 0);
    let stdin = std::io::stdin();
    // Lines as bytes: one that is not UTF-8 is not a move, not the end.
    let mut lines = stdin.lock().split(b'\n');
    // Not locked: the thinking line is written from another thread.
    let mut out = Named(std::io::stdout());

    let mut table = Table::new(&start, first, None);
    writeln!(out, "You are {}. {HELP}", you.symbol())?;
    if !Screen::values_fit(&start) {
        write!(
            out,
            "cell values (the board is drawn without them):\n{}",
            Screen::values(&start)
        )?;
    }
    loop {
        let game = table.game();
        let p = game.to_move();
        if game.is_over() {
            write!(out, "{}", screen.draw(game))?;
            let margin = game.margin(you);
            let verdict = match margin.signum() {
                1 => "you win",
                -1 => "the engine wins",
                _ => "a draw",
            };
            writeln!(out, "game over: {verdict} by {}", margin.abs())?;
            return Ok(());
        }
        if p != you {
            let label = format!("engine ({}) thinking", p.symbol());
            let played = if live {
                with_ticker(&mut out, &label, TICK, || table.turn(&mut seat))
            } else {
                table.turn(&mut seat)
            }?;
            // Without a budget an agent never forfeits.
            if let Ok(mv) = played.result {
                writeln!(out, "engine ({}) plays {mv}", p.symbol())?;
            }
            continue;
        }
        write!(out, "{}{} to move> ", screen.draw(game), p.symbol())?;
        out.flush()?;
        let Some(line) = lines.next() else {
            writeln!(out, "\nbye")?;
            return Ok(());
        };
        let line = line.context("reading standard input")?;
        let line = String::from_utf8_lossy(&line);
        match line.trim().to_ascii_lowercase().as_str() {
            "" => continue,
            "quit" | "exit" | "q" => return Ok(()),
            "help" | "?" => writeln!(out, "{HELP}")?,
            "values" => write!(out, "{}", Screen::values(game.board()))?,
            "hint" => {
                let board = game.board().clone();
                let empties = board.empty_count();
                let exact = empties <= EXACT_HINT_EMPTIES;
                let depth = if exact {
                    empties
                } else {
                    HINT_DEPTH.min(empties)
                };
                let problem = Problem {
                    board,
                    player: p,
                    question: Question::Exact {
                        mode: SearchMode::AlphaBeta,
                        depth,
                    },
                };
                let limits = Limits {
                    threads: 1,
                    ..Limits::default()
                };
                let search = || solve(&problem, &limits);
                let hint = if live {
                    with_ticker(&mut out, "hint: thinking", TICK, search)
                } else {
                    search()
                }?;
                let how = if exact {
                    "exact: solved to the end of the game".to_owned()
                } else {
                    format!("at depth {depth}")
                };
                writeln!(out, "hint: {} (value {}, {how})", hint.best, hint.value)?;
            }
            "undo" => {
                // Back to this player's previous turn.
                let back = game.moves().rposition(|(_, q)| q == you);
                match back {
                    Some(i) => {
                        let taken: Vec<String> = game
                            .moves()
                            .skip(i)
                            .map(|(mv, q)| {
                                let whose = if q == you { "your" } else { "the engine's" };
                                format!("{whose} {mv}")
                            })
                            .collect();
                        table.undo_to(i);
                        writeln!(out, "took back {}", taken.join(" and "))?;
                    }
                    None => writeln!(out, "nothing to undo")?,
                }
            }
            text => match text.parse::<Move>() {
                Ok(mv) => match game.check(mv) {
                    Ok(()) => {
                        table.turn(&mut Chosen(mv))?;
                    }
                    Err(why) => writeln!(out, "{mv} is not legal here: {why}")?,
                },
                Err(e) => writeln!(out, "not a move: {e}; {HELP}")?,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_thinking_line_counts_up_and_is_cleared() {
        let mut out = Vec::new();
        let answer = with_ticker(
            &mut out,
            "engine (O) thinking",
            Duration::from_millis(20),
            || {
                std::thread::sleep(Duration::from_millis(150));
                42
            },
        );
        assert_eq!(answer, 42);
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.starts_with("\rengine (O) thinking... 0.0 s"),
            "{text:?}"
        );
        assert!(text.contains("thinking... 0.1 s"), "{text:?}");
        assert!(text.ends_with("\r\x1b[K"), "cleared at the end: {text:?}");
    }

    fn drawn(n: usize, max_value: i32) -> String {
        let board = random_board(&mut Rng::new(1), n, max_value, 0.0);
        Screen { color: false }.draw(&Game::new(&board, Player::X))
    }

    #[test]
    fn boards_fit_a_hundred_columns() {
        for n in 1..=26 {
            for max_value in [9, 99, 999] {
                let text = drawn(n, max_value);
                let widest = text.lines().map(|l| l.chars().count()).max().unwrap();
                assert!(
                    widest <= MAX_WIDTH,
                    "{n}x{n} up to {max_value}: {widest}\n{text}"
                );
            }
        }
        // Small boards keep their values beside the pieces.
        let first_cell = drawn(6, 99)
            .lines()
            .nth(1)
            .unwrap()
            .split_whitespace()
            .nth(1)
            .unwrap()
            .to_owned();
        assert!(first_cell.len() > 1, "{first_cell}");
        assert!(Screen::values_fit(&random_board(
            &mut Rng::new(1),
            6,
            99,
            0.0
        )));
    }

    /// The values grid: every line as wide as the others, each value's
    /// last digit under its column's letter.
    #[test]
    fn values_line_up_under_their_letters() {
        let board = random_board(&mut Rng::new(3), 12, 999, 0.0);
        let text = Screen::values(&board);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 13);
        assert!(lines.iter().all(|l| l.len() == lines[0].len()), "{text}");
        for (c, letter) in ('A'..='L').enumerate() {
            let at = lines[0].find(letter).unwrap();
            for (r, line) in lines[1..].iter().enumerate() {
                let value = board.value(r, c).to_string();
                assert_eq!(&line[at + 1 - value.len()..=at], value, "{text}");
            }
        }
    }
}
