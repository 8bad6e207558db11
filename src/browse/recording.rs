//! Recording a solver's search as frames to play: the bridge from the engine's trace events to
//! what the browser draws.

use queens_core::Algorithm;

use super::playback::Playback;

/// The most events recorded: enough for the first solution of every board the browser takes
/// with every solver, and a bound on memory.
pub const MAX_EVENTS: usize = 100_000;

/// Records `algorithm` searching the `n` x `n` board up to its first solution.
pub fn record(n: usize, algorithm: Algorithm) -> Result<Playback, String> {
    let _ = (n, MAX_EVENTS);
    Err(format!(
        "cannot play the {algorithm} search: the engine's tracing is not part of this build yet"
    ))
}
