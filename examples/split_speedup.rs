//! The speedup a split solve would reach on many workers, from its jobs'
//! measured durations (see `stakeraid::jobs::simulate`):
//!
//!   cargo run --release --example split_speedup -- INPUT SPLIT[:ORDER] WORKERS...
//!
//! Prints, per worker count, the simulated wall time, the total job time,
//! the driver's own time, jobs and nodes, and the speedup over one worker
//! without speculation, for both settings of `Settings::speculate`.
use stakeraid::jobs::{simulate, Settings};
use stakeraid::{parse_problem, Question};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [input, split, workers @ ..] = args.as_slice() else {
        return Err("usage: split_speedup INPUT SPLIT WORKERS...".into());
    };
    let problem = parse_problem(std::fs::read(input)?.as_slice())?;
    let Question::Exact { depth, .. } = problem.question else {
        return Err("a MINIMAX or ALPHABETA input".into());
    };
    // SPLIT or SPLIT:ORDER, ORDER the plies of the ordering searches.
    let (split, order) = match split.split_once(':') {
        Some((s, o)) => (s.parse::<u32>()?, Some(o.parse::<u32>()?)),
        None => (split.parse::<u32>()?, None),
    };
    let mut one = None;
    println!("speculate  workers  wall_s  work_s  driver_s  jobs  nodes  speedup  answer");
    for speculate in [false, true] {
        for w in workers {
            let w: usize = w.parse()?;
            let defaults = Settings::default();
            let settings = Settings {
                split,
                order_plies: order.unwrap_or(defaults.order_plies),
                speculate,
                ..defaults
            };
            let s = simulate(&problem.board, problem.player, depth, settings, w);
            let wall = s.makespan_us as f64 / 1e6;
            let base = *one.get_or_insert(wall);
            println!(
                "{speculate:9}  {w:7}  {wall:6.2}  {:6.2}  {:8.2}  {:4}  {}  {:7.1}x  {} {}",
                s.work_us as f64 / 1e6,
                s.driver_us as f64 / 1e6,
                s.jobs,
                s.nodes,
                base / wall,
                s.answer.best,
                s.answer.value
            );
        }
    }
    Ok(())
}
