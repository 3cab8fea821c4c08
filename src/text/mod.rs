//! Text in and out: `input.txt` into a [`Problem`], the answer as
//! `output.txt` (and read back, as a referee reads a program's answer),
//! and the older Drop / Blitz board format.

mod answer;
pub(crate) mod checks;
pub(crate) mod dropblitz;
mod input;
mod lines;
mod output;
mod problem;

pub use answer::{parse_answer, AnswerError, AnswerText};
pub use input::{parse_problem, ParseError, ParseErrorKind};
pub(crate) use output::output_text;
pub use output::{answer_text, input_text};
pub use problem::{Problem, Question, SearchMode, UnknownMode};
