//! Text in and out: `input.txt` into a [`Problem`], the answer as
//! `output.txt`, and the older Drop / Blitz board format.

pub(crate) mod checks;
pub mod dropblitz;
mod input;
mod lines;
mod output;
mod problem;

pub use input::{parse_problem, ParseError, ParseErrorKind};
pub use output::{answer_text, input_text};
pub use problem::{Problem, SearchMode, Task};
