//! The speedup a split solve would reach on many workers, from its jobs'
//! measured durations (the model: `stakeraid::jobs::simulate`):
//!
//!   cargo run --release --example split_speedup -- INPUT SPLIT[:ORDER] [OPTIONS] WORKERS...
//!
//! Options: `--per-table K` (workers sharing one table: 1 where each is a
//! process, as a Ray task per CPU; default all of them, as threads),
//! `--latency-us N` (a job's time outside its search on the cluster),
//! `--speculate on|off|both` (default both), `--eager` (every child of a
//! node predicted to need them all tested at once), `--hint MOVE=VALUE`,
//! `--job-nodes N` (a job stops past N nodes and its children become jobs),
//! `--ahead` (a root move's tests asked two ahead), `--share-nodes N`
//! (proofs of at least N nodes handed on between tables), `--share-plies P`
//! (of positions of at least P plies; default 12), `--cores N` (jobs of
//! different tables answered side by side here; default 1), `--node-clock
//! N` (a job takes its nodes at N a microsecond, not its measured time:
//! the same result on any cores, run after run), `--tables-gib N` (the
//! simulated tables kept here at most, the least recently used dropped
//! beyond; default 4: raise it for many machines of a deep solve's
//! table each, or they are dropped and made again), `--home-plies N` (the
//! depth of the node whose position sends a job home; default
//! `Settings::home_plies_for` the simulated machines), `--stretch-us N`
//! (on the node clock, how far the jobs are searched at a time, and past
//! their cancelling at most; default 1000).
//!
//! Prints, per worker count, the simulated wall time, the total job time,
//! the driver's own time, jobs (cancelled ones among them), the nodes of
//! the jobs that came back and the driver (`nodes`) and those searched in
//! all (`searched`: the cancelled jobs' up to their cancelling too), the
//! nodes searched here to simulate it (`here`: on the measured clock every
//! job to its end), and with `--direct SECONDS:NODES` (the direct
//! one-thread solve's time and nodes) the speedup and the work over that
//! solve (`stakeraid::jobs::Scaling`; "-" without it), each row followed
//! by a line `# workers W per-machine M speedup S work K`, with why where
//! the position is too small for the workers.
use stakeraid::jobs::{Cluster, DirectSolve, Hint, JobClock, Settings, Share, Simulator};
use stakeraid::{parse_problem, Question};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1).peekable();
    let usage = "usage: split_speedup INPUT SPLIT[:ORDER] [--per-table K] [--latency-us N] [--speculate on|off|both] [--eager] [--spare] [--hint MOVE=VALUE] [--job-nodes N] [--ahead] [--share-nodes N [--share-plies P]] [--cores N] [--node-clock N] [--tables-gib N] [--home-plies N] [--stretch-us N] [--direct SECONDS:NODES] WORKERS...";
    let (Some(input), Some(split)) = (args.next(), args.next()) else {
        return Err(usage.into());
    };
    let (mut per_table, mut latency_us, mut speculation) = (None, 0, vec![false, true]);
    let (mut eager, mut ahead, mut spare) = (false, false, false);
    let mut hint = None;
    let mut job_nodes = None;
    let mut share_nodes = None;
    let mut share_plies = None;
    let mut home_plies = None;
    let mut direct = None;
    let mut workers = Vec::new();
    let mut simulator = Simulator::default();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--per-table" => per_table = Some(args.next().ok_or(usage)?.parse::<usize>()?),
            "--eager" => eager = true,
            "--spare" => spare = true,
            "--ahead" => ahead = true,
            "--job-nodes" => job_nodes = Some(args.next().ok_or(usage)?.parse::<u64>()?),
            "--share-nodes" => share_nodes = Some(args.next().ok_or(usage)?.parse::<u64>()?),
            "--share-plies" => share_plies = Some(args.next().ok_or(usage)?.parse::<u32>()?),
            "--home-plies" => home_plies = Some(args.next().ok_or(usage)?.parse::<u32>()?),
            "--hint" => {
                let text = args.next().ok_or(usage)?;
                let (mv, value) = text.rsplit_once('=').ok_or(usage)?;
                hint = Some(Hint {
                    best: mv.parse()?,
                    value: value.trim().parse()?,
                });
            }
            "--cores" => simulator.cores = args.next().ok_or(usage)?.parse()?,
            "--node-clock" => {
                let per_us = args.next().ok_or(usage)?.parse()?;
                simulator.clock = JobClock::Nodes { per_us };
            }
            "--tables-gib" => {
                let gib: usize = args.next().ok_or(usage)?.parse()?;
                simulator.tables_bytes = gib.checked_mul(1 << 30).ok_or(usage)?;
            }
            "--stretch-us" => simulator.stretch_us = args.next().ok_or(usage)?.parse()?,
            "--latency-us" => latency_us = args.next().ok_or(usage)?.parse()?,
            "--direct" => {
                let text = args.next().ok_or(usage)?;
                let (seconds, nodes) = text.split_once(':').ok_or(usage)?;
                direct = Some(DirectSolve {
                    seconds: seconds.parse()?,
                    nodes: nodes.parse()?,
                });
            }
            "--speculate" => {
                speculation = match args.next().as_deref() {
                    Some("on") => vec![true],
                    Some("off") => vec![false],
                    Some("both") => vec![false, true],
                    _ => return Err(usage.into()),
                }
            }
            w => workers.push(w.parse::<usize>()?),
        }
    }
    let problem = parse_problem(std::fs::read(input)?.as_slice())?;
    let Question::Exact { depth, .. } = problem.question else {
        return Err("a MINIMAX or ALPHABETA input".into());
    };
    // SPLIT or SPLIT:ORDER, ORDER the plies of the ordering searches.
    let (split, order) = match split.split_once(':') {
        Some((s, o)) => (s.parse::<u32>()?, Some(o.parse::<u32>()?)),
        None => (split.parse::<u32>()?, None),
    };
    println!(
        "# workers per table {}, latency {latency_us} us, eager {eager}, spare {spare}, hint {hint:?}, job nodes {job_nodes:?}, ahead {ahead}, share nodes {share_nodes:?}, home plies {home_plies:?}, {simulator:?}",
        per_table.map_or("all".to_string(), |k| k.to_string())
    );
    println!(
        "speculate  workers  wall_s  work_s  driver_s  jobs  cancelled  cancelled_s  stopped  stopped_s  nodes  searched  here  handed  away  speedup  work  answer"
    );
    for &speculate in &speculation {
        for &w in &workers {
            let cluster = Cluster {
                workers: w,
                per_table: per_table.unwrap_or(w),
                latency_us,
            };
            let defaults = Settings::default();
            let settings = Settings {
                split,
                order_plies: order.unwrap_or(defaults.order_plies),
                speculate,
                eager,
                spare,
                hint,
                job_nodes,
                ahead,
                home_plies: home_plies
                    .unwrap_or_else(|| Settings::home_plies_for(cluster.tables())),
                share: share_nodes.map(|nodes| Share {
                    plies: share_plies.unwrap_or(Share::nodes(nodes).plies),
                    ..Share::nodes(nodes)
                }),
                ..defaults
            };
            let s = simulator.simulate(&problem.board, problem.player, depth, settings, cluster);
            let wall = s.makespan_us as f64 / 1e6;
            let scaling = direct.map(|d| d.against(&s));
            let (speedup, work) = scaling.map_or(("-".into(), "-".into()), |x| {
                (x.speedup_text(), x.work_text())
            });
            println!(
                "{speculate:9}  {w:7}  {wall:6.2}  {:6.2}  {:8.2}  {:4}  {:9}  {:11.2}  {:7}  {:9.2}  {}  {}  {}  {}  {}  {speedup:>7}  {work:>5}  {} {}",
                s.work_us as f64 / 1e6,
                s.driver_us as f64 / 1e6,
                s.jobs,
                s.cancelled,
                s.cancelled_us as f64 / 1e6,
                s.stopped,
                s.stopped_us as f64 / 1e6,
                s.nodes,
                s.searched,
                s.here,
                s.handed,
                s.away,
                s.answer.best,
                s.answer.value
            );
            if let Some(scaling) = scaling {
                println!("# {}", scaling.summary(cluster));
            }
        }
    }
    Ok(())
}
