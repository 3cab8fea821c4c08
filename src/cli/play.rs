//! `stakeraid play`: a person against an engine in the terminal.

use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;

use anyhow::Context;
use stakeraid::arena::{own_sum, Agent, Seat};
use stakeraid::rng::{random_board, Rng};
use stakeraid::search::root;
use stakeraid::{parse_problem, Board, Game, Move, Player, Square};

use super::io::read_input;

/// Arguments of `stakeraid play`.
#[derive(clap::Args)]
pub struct PlayArgs {
    /// The engine: random, greedy, textbook:DEPTH, ab:DEPTH, comp:SECONDS (per game) ...
    #[arg(long, default_value = "comp:30")]
    engine: Agent,
    /// Which side you play (X moves first).
    #[arg(long, default_value = "X", value_parser = ["X", "O", "x", "o"])]
    you: String,
    /// Board side for a random board.
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u8).range(1..=26))]
    size: u8,
    /// Seed of the random board.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Largest cell value of the random board.
    #[arg(long, default_value_t = 99, value_parser = clap::value_parser!(i32).range(1..))]
    max_value: i32,
    /// Start from this input.txt instead (its player moves first).
    #[arg(long)]
    input: Option<PathBuf>,
    /// Colours: auto (when standard output is a terminal), always or never.
    #[arg(long, default_value = "auto", value_parser = ["auto", "always", "never"])]
    color: String,
}

const HELP: &str = "moves: C3 stake, C3 raid   commands: undo, hint, help, quit";

struct Screen {
    color: bool,
}

impl Screen {
    /// The board with column letters, row numbers, owners and values.
    fn draw(&self, board: &Board) -> String {
        let n = board.n();
        let width = (0..n * n)
            .map(|i| board.value(i / n, i % n).to_string().len())
            .max()
            .unwrap_or(1)
            + 1;
        let mut s = String::from("    ");
        for c in 0..n {
            s.push_str(&format!("{:>w$} ", (b'A' + c as u8) as char, w = width + 1));
        }
        s.push('\n');
        for r in 0..n {
            s.push_str(&format!("{:>3} ", r + 1));
            for c in 0..n {
                let (mark, code) = match board.square(r, c) {
                    Square::Empty => ('.', "2"),
                    Square::Piece(Player::X) => ('X', "1;31"),
                    Square::Piece(Player::O) => ('O', "1;34"),
                };
                let cell = format!("{mark}{:>w$}", board.value(r, c), w = width);
                if self.color {
                    s.push_str(&format!("\x1b[{code}m{cell}\x1b[0m "));
                } else {
                    s.push_str(&cell);
                    s.push(' ');
                }
            }
            s.push('\n');
        }
        s.push_str(&format!(
            "X {}  O {}\n",
            own_sum(board, Player::X),
            own_sum(board, Player::O)
        ));
        s
    }
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
    let mut seat = Seat::new(&args.engine, args.seed);
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut out = std::io::stdout().lock();

    let mut game = Game::new(&start, first);
    writeln!(out, "You are {}. {HELP}", you.symbol())?;
    loop {
        let (board, p) = (game.board(), game.to_move());
        if game.is_over() {
            write!(out, "{}", screen.draw(board))?;
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
            let mv = seat.choose(board, p, 0);
            writeln!(out, "engine ({}) plays {mv}", p.symbol())?;
            game.play(mv);
            continue;
        }
        write!(out, "{}{} to move> ", screen.draw(board), p.symbol())?;
        out.flush()?;
        let Some(line) = lines.next() else {
            writeln!(out, "\nbye")?;
            return Ok(());
        };
        let line = line?;
        match line.trim().to_ascii_lowercase().as_str() {
            "" => continue,
            "quit" | "exit" | "q" => return Ok(()),
            "help" | "?" => writeln!(out, "{HELP}")?,
            "hint" => {
                let depth = 4.min(board.empty_count());
                let hint = root::alphabeta(board, p, depth, false);
                writeln!(
                    out,
                    "hint: {} (value {} at depth {depth})",
                    hint.best, hint.value
                )?;
            }
            "undo" => {
                // Back to this player's previous turn.
                let back = game.moves().rposition(|(_, q)| q == you);
                match back {
                    Some(i) => game.undo_to(i),
                    None => writeln!(out, "nothing to undo")?,
                }
            }
            text => match text.parse::<Move>() {
                Ok(mv) if game.is_legal(mv) => game.play(mv),
                Ok(mv) => writeln!(out, "{mv} is not legal here")?,
                Err(e) => writeln!(out, "{e}; {HELP}")?,
            },
        }
    }
}
