//! Counting a board in shards, as several machines would, and adding the parts up; the whole
//! count and the reference table agree.
//!
//! Run: `cargo run --release -p queens-core --example count_shards -- 14 4`

use queens_core::count::{self, Counts, Run, Shard};
use queens_core::reference;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().map_or(Ok(12), |a| a.parse())?;
    let shards: u64 = args.next().map_or(Ok(3), |a| a.parse())?;
    let mut sum = Counts::default();
    for index in 0..shards {
        let run = Run::new(n)?.shard(Shard::new(index, shards)?);
        let part = run.execute()?;
        println!(
            "shard {index}/{shards}: {} subproblems of {}, total {}, unique {}",
            run.todo(),
            run.subproblems(),
            part.total,
            part.unique
        );
        sum.total += part.total;
        sum.unique += part.unique;
    }
    let whole = count::count(n)?;
    assert_eq!(sum, whole, "the shards add up to the whole");
    if let Some(known) = reference::known_for(n) {
        assert_eq!((whole.total, whole.unique), (known.total, known.unique));
    }
    println!(
        "N = {n}: {} solutions, {} unique",
        whole.total, whole.unique
    );
    Ok(())
}
