//! Signals for the long runs of `queens count`: SIGINT, SIGTERM and SIGHUP. The first one caught
//! cancels the run (which then saves its checkpoint and ends with 128 + the signal's number); a
//! second one ends the process at once with that status, without saving. SIGHUP stays ignored
//! when it was ignored at the start (as `nohup` leaves it), so that a run under `nohup` survives
//! the end of its session. Off Unix the default handling stays: a signal ends the process, and
//! a resumed run loses the work since the last save.
//!
//! May call: `queens_core::count::Run` (to cancel it) and [`crate::status`]; nothing of `cmd/`.

#[cfg(unix)]
mod imp {
    use std::sync::atomic::{AtomicI32, Ordering};
    use std::sync::Arc;

    use anyhow::Context;
    use queens_core::count::Run;
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    use signal_hook::iterator::Signals;

    use crate::status::Status;

    /// The signal caught, shared with the thread that waits for them.
    pub struct Caught(Arc<AtomicI32>);

    impl Caught {
        /// The first signal caught, if any.
        pub fn caught(&self) -> Option<i32> {
            Some(self.0.load(Ordering::SeqCst)).filter(|&s| s != 0)
        }
    }

    /// Starts the thread that turns the signals into a cancel of `run`.
    pub fn install(run: Arc<Run>) -> anyhow::Result<Caught> {
        // SIGINT is handled even when ignored (a shell script's `queens count ... &` starts
        // with it ignored): whoever sends it to a count means it to stop and save.
        let mut wanted = vec![SIGINT, SIGTERM];
        if !ignored(SIGHUP) {
            wanted.push(SIGHUP);
        }
        let mut signals = Signals::new(&wanted).context("cannot install the signal handlers")?;
        let caught = Arc::new(AtomicI32::new(0));
        let shared = Arc::clone(&caught);
        std::thread::Builder::new()
            .name("signals".into())
            .spawn(move || {
                for signal in signals.forever() {
                    if shared
                        .compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst)
                        .is_err()
                    {
                        eprintln!("queens: a second signal: stopping without saving");
                        std::process::exit(128 + signal);
                    }
                    run.cancel();
                }
            })
            .context("cannot start the signal thread")?;
        Ok(Caught(caught))
    }

    /// The exit status after `signal`: 130, 143 or 129.
    pub fn status_of(signal: i32) -> Status {
        match signal {
            SIGTERM => Status::Terminated,
            SIGHUP => Status::HungUp,
            _ => Status::Interrupted,
        }
    }

    /// Whether `signal` is ignored (`SIG_IGN`) in this process, as `nohup` leaves SIGHUP.
    fn ignored(signal: i32) -> bool {
        // SAFETY: with a null new action, `sigaction` only writes the current disposition into
        // `old`, a zeroed `sigaction` owned by this frame.
        unsafe {
            let mut old: libc::sigaction = std::mem::zeroed();
            libc::sigaction(signal, std::ptr::null(), &mut old) == 0
                && old.sa_sigaction == libc::SIG_IGN
        }
    }
}

#[cfg(not(unix))]
mod imp {
    use std::sync::Arc;

    use queens_core::count::Run;

    use crate::status::Status;

    pub struct Caught;

    impl Caught {
        pub fn caught(&self) -> Option<i32> {
            None
        }
    }

    pub fn install(_run: Arc<Run>) -> anyhow::Result<Caught> {
        Ok(Caught)
    }

    pub fn status_of(_signal: i32) -> Status {
        Status::Interrupted
    }
}

pub use imp::{install, status_of};
