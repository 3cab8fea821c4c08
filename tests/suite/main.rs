//! The integration suite, one binary: golden files, the command line,
//! board properties and engine agreement.

mod agreement;
mod cli;
mod golden;
mod properties;
mod signature;
mod util;
