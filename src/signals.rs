//! Signals for the long runs of `queens count`: SIGINT, SIGTERM and SIGHUP. The first one caught
//! cancels the run (which then saves its checkpoint and ends with 128 + the signal's number); a
//! second one ends the process at once with that status, without saving. SIGHUP stays ignored
//! when it was ignored at the start (as `nohup` leaves it), so that a run under `nohup` survives
//! the end of its session. The handlers are installed before the run is planned or its
//! checkpoint read ([`install`], then [`Caught::attach`] once the run exists), so that a signal
//! sent in the first moments is not lost. Off Unix the default handling stays: a signal ends the process, and
//! a resumed run loses the work since the last save.
//!
//! May call: `queens_core::count::Run` (to cancel it) and [`crate::status`]; nothing of `cmd/`.

#[cfg(unix)]
mod imp {
    use std::sync::atomic::{AtomicI32, Ordering};
    use std::sync::{Arc, Mutex, PoisonError};

    use anyhow::Context;
    use queens_core::count::Run;
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    use signal_hook::iterator::Signals;

    use crate::status::Status;

    /// What the signal thread shares: the first signal caught, and the run to cancel once it
    /// is built.
    #[derive(Default)]
    struct Shared {
        caught: AtomicI32,
        run: Mutex<Option<Arc<Run>>>,
    }

    /// The signal caught, shared with the thread that waits for them.
    pub struct Caught(Arc<Shared>);

    impl Caught {
        /// The first signal caught, if any.
        pub fn caught(&self) -> Option<i32> {
            Some(self.0.caught.load(Ordering::SeqCst)).filter(|&s| s != 0)
        }

        /// Hands the thread the run to cancel; one caught before (while the run was being
        /// planned or its checkpoint read) cancels it now, before it counts anything.
        pub fn attach(&self, run: Arc<Run>) {
            let mut slot = self.0.run.lock().unwrap_or_else(PoisonError::into_inner);
            if self.caught().is_some() {
                run.cancel();
            }
            *slot = Some(run);
        }
    }

    /// Starts the thread that turns the signals into a cancel of the run attached later
    /// ([`Caught::attach`]). Called before the run is planned, so that no signal is lost.
    pub fn install() -> anyhow::Result<Caught> {
        // SIGINT is handled even when ignored (a shell script's `queens count ... &` starts
        // with it ignored): whoever sends it to a count means it to stop and save.
        let mut wanted = vec![SIGINT, SIGTERM];
        if !ignored(SIGHUP) {
            wanted.push(SIGHUP);
        }
        let mut signals = Signals::new(&wanted).context("cannot install the signal handlers")?;
        let shared = Arc::new(Shared::default());
        let thread_side = Arc::clone(&shared);
        std::thread::Builder::new()
            .name("signals".into())
            .spawn(move || {
                for signal in signals.forever() {
                    if thread_side
                        .caught
                        .compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst)
                        .is_err()
                    {
                        eprintln!("queens: a second signal: stopping without saving");
                        std::process::exit(128 + signal);
                    }
                    let run = thread_side
                        .run
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner);
                    if let Some(run) = run.as_ref() {
                        run.cancel();
                    }
                }
            })
            .context("cannot start the signal thread")?;
        Ok(Caught(shared))
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

        pub fn attach(&self, _run: Arc<Run>) {}
    }

    pub fn install() -> anyhow::Result<Caught> {
        Ok(Caught)
    }

    pub fn status_of(_signal: i32) -> Status {
        Status::Interrupted
    }
}

pub use imp::{install, status_of};
