//! The integration suite, one binary: golden files, the command line,
//! board properties and engine agreement.

mod agreement;
mod analyse;
mod api;
mod batch;
#[cfg(feature = "web")]
mod browser;
mod cli;
mod docs;
mod dominance;
mod golden;
mod grade;
mod grade_class;
mod grade_sites;
mod grade_zoo;
mod grading_examples;
mod layout;
mod legacy;
mod long_solve;
mod play;
mod properties;
mod referee;
mod regions;
mod rules;
mod sandbox;
mod serve;
mod serve_many;
mod setup;
mod signature;
mod solve_batch;
mod split_bound;
mod store;
mod util;
#[cfg(feature = "web")]
mod web;
#[cfg(feature = "web")]
mod web_caps;
