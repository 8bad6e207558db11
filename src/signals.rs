//! Signals: SIGINT, SIGTERM and SIGHUP, caught from the program's first moment, for the
//! commands that stop gracefully on them (`queens count` saves its checkpoint, `queens serve`
//! finishes the requests in flight, `queens browse` gives the terminal back; the server and
//! the viewer also take SIGQUIT). `queens complete --count` claims them once its instance is
//! read, its search about to start (it then says how many completions it found): until then
//! they end it as they end any program, so that a read that waits (a terminal, a pipe) still
//! ends at Ctrl-C.
//!
//! [`early`] installs the handlers before the arguments are parsed, so that a signal sent in
//! the first moments is never lost (a shell's background job starts with SIGINT ignored, and a
//! signal sent while the arguments were parsed used to meet that). A signal caught before a
//! command claims them is kept: [`install`] claims them (the command then reads the signal with
//! [`Caught::caught`] and hands over what a signal stops, [`Caught::attach`] or
//! [`Caught::notify`] or [`Caught::raise`], which a signal kept already stops at once), and
//! [`release`] gives every other command the default handling back (a signal kept, or any
//! later one, ends the process as if no handler had been installed; one ignored at the start
//! stays ignored). A command given the default handling may still claim them later with
//! [`install`] (`complete --count`, past its read).
//!
//! For a claiming command, the first signal caught stops it (it ends with 128 + the signal's
//! number); a second one ends the process at once with that status, without saving or waiting
//! (the same signal again within 100 ms is the same one delivered twice, as `timeout` does).
//! SIGHUP (and for the server SIGQUIT) stays ignored when it was ignored at the start (as
//! `nohup` leaves it), so that a run under `nohup` survives the end of its session. Off Unix the
//! default handling stays: a signal ends the process, and a resumed run loses the work since the
//! last save.
//!
//! May call: `queens_core::count::Run` (to cancel it), [`crate::status`] and
//! [`crate::output::note`]; nothing of `cmd/`.

#[cfg(unix)]
mod imp {
    use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
    use std::sync::{mpsc, Arc, Mutex, MutexGuard, OnceLock, PoisonError};
    use std::time::{Duration, Instant};

    use anyhow::Context;
    use queens_core::count::Run;
    use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};
    use signal_hook::iterator::{Handle, Signals};

    use crate::output::note;
    use crate::status::Status;

    /// Who answers a signal.
    #[derive(Clone, Copy, PartialEq, Eq)]
    enum Mode {
        /// No command has said yet: a signal is kept for the one that claims them.
        Waiting,
        /// A command stops gracefully on them ([`super::install`]).
        Claimed,
        /// The default handling ([`super::release`]).
        Default,
    }

    /// What a signal stops.
    enum Target {
        None,
        Run(Arc<Run>),
        /// A search that polls a flag (`complete --count`): raised by the first signal.
        Flag(Arc<AtomicBool>),
        /// The server: told of the first signal, it finishes the requests in flight.
        Notify(Box<dyn Fn(i32) + Send>),
        /// The terminal viewer: told of the first signal, it gives the terminal back as it
        /// ends; a second one runs `before_exit` (the terminal given back) and ends at once.
        Quit {
            notify: Box<dyn Fn(i32) + Send>,
            before_exit: fn(),
        },
    }

    /// The handling state, behind one lock so that the signal thread and the command never
    /// decide on a stale mode.
    struct State {
        mode: Mode,
        target: Target,
        /// When the first signal was caught.
        first_at: Option<Instant>,
        /// The signals that stay ignored under the default handling ([`super::release`]).
        stay_ignored: Vec<i32>,
    }

    /// A repeat of the first signal sooner than this after it is taken for the same one:
    /// `timeout` sends its signal to the program and then to its process group, and a shell's
    /// wrapper may forward one the terminal sent the whole group. No person presses Ctrl-C
    /// twice this fast.
    const SAME_SIGNAL: Duration = Duration::from_millis(100);

    /// What the signal thread shares with the command.
    struct Shared {
        /// The first signal caught, 0 before.
        caught: AtomicI32,
        state: Mutex<State>,
        /// The signals ignored when the program started.
        ignored_at_start: Vec<i32>,
        handle: Handle,
    }

    impl Shared {
        /// The state before any signal and before a command claims them: nothing caught,
        /// waiting; `ignored_at_start` as the program found them, `handle` the handlers'.
        fn waiting(ignored_at_start: Vec<i32>, handle: Handle) -> Shared {
            Shared {
                caught: AtomicI32::new(0),
                state: Mutex::new(State {
                    mode: Mode::Waiting,
                    target: Target::None,
                    first_at: None,
                    stay_ignored: Vec::new(),
                }),
                ignored_at_start,
                handle,
            }
        }

        fn state(&self) -> MutexGuard<'_, State> {
            self.state.lock().unwrap_or_else(PoisonError::into_inner)
        }

        /// The signal thread's answer to `signal`.
        fn on(&self, signal: i32) {
            let mut state = self.state();
            if state.mode == Mode::Default {
                let dies = !state.stay_ignored.contains(&signal);
                drop(state);
                if dies {
                    die_of(signal);
                }
                return;
            }
            let first = self.caught.load(Ordering::SeqCst);
            if first == signal && state.first_at.is_some_and(|at| at.elapsed() < SAME_SIGNAL) {
                return;
            }
            if self
                .caught
                .compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst)
                .is_err()
            {
                let what = match state.target {
                    Target::Notify(_) => "without waiting for the requests in flight",
                    Target::Quit { before_exit, .. } => {
                        before_exit();
                        "at once"
                    }
                    Target::Flag(_) => "at once",
                    _ => "without saving",
                };
                note!("queens: a second signal: stopping {what}");
                std::process::exit(128 + signal);
            }
            state.first_at = Some(Instant::now());
            match &state.target {
                Target::None => {}
                Target::Run(run) => run.cancel(),
                Target::Flag(flag) => flag.store(true, Ordering::SeqCst),
                Target::Notify(notify) | Target::Quit { notify, .. } => notify(signal),
            }
        }

        /// [`release`]'s change of mode: the signal caught since [`early`] that ends the
        /// process now, if any. One that stays ignored is forgotten, as if it had met its
        /// `SIG_IGN`: a command that claims the signals later ([`install`], `complete --count`
        /// past its read) must not take it for one sent to it, which would stop it at once.
        fn release(&self, count: bool) -> Option<i32> {
            let mut state = self.state();
            if state.mode != Mode::Waiting {
                return None;
            }
            state.mode = Mode::Default;
            state.stay_ignored = self
                .ignored_at_start
                .iter()
                .copied()
                .filter(|&s| !(count && (s == SIGINT || s == SIGTERM)))
                .collect();
            let caught = self.caught.load(Ordering::SeqCst);
            if caught == 0 {
                return None;
            }
            if state.stay_ignored.contains(&caught) {
                self.caught.store(0, Ordering::SeqCst);
                state.first_at = None;
                return None;
            }
            Some(caught)
        }
    }

    /// Ends the process as the default handling of `signal` does.
    fn die_of(signal: i32) -> ! {
        let _ = signal_hook::low_level::emulate_default_handler(signal);
        std::process::exit(128 + signal)
    }

    /// The handlers installed by [`early`] (or by the first [`install`]).
    static HANDLERS: OnceLock<Arc<Shared>> = OnceLock::new();

    /// Starts the thread that waits for the signals and, once it runs, installs the handlers:
    /// a thread that cannot start leaves the default handling in place.
    fn start() -> anyhow::Result<Arc<Shared>> {
        // SIGINT and SIGTERM are handled even when ignored (a shell script's `queens count ...
        // &` starts with SIGINT ignored): whoever sends them to a count means it to stop and
        // save. SIGHUP ignored stays ignored.
        let ignored_at_start: Vec<i32> = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]
            .into_iter()
            .filter(|&s| ignored(s))
            .collect();
        let mut wanted = vec![SIGINT, SIGTERM];
        if !ignored_at_start.contains(&SIGHUP) {
            wanted.push(SIGHUP);
        }
        // The thread installs the handlers and says so: nothing is installed unless a thread
        // runs to answer them.
        let (sent, installed) = mpsc::channel::<std::io::Result<Arc<Shared>>>();
        std::thread::Builder::new()
            .name("signals".into())
            .stack_size(256 << 10)
            .spawn(move || {
                let mut signals = match Signals::new(&wanted) {
                    Ok(signals) => signals,
                    Err(err) => {
                        let _ = sent.send(Err(err));
                        return;
                    }
                };
                let shared = Arc::new(Shared::waiting(ignored_at_start, signals.handle()));
                let _ = sent.send(Ok(Arc::clone(&shared)));
                for signal in signals.forever() {
                    shared.on(signal);
                }
            })
            .context("cannot start the signal thread")?;
        installed
            .recv()
            .context("the signal thread ended at its start")?
            .context("cannot install the signal handlers")
    }

    /// Installs the handlers, once, before anything else: called by `main` before it parses the
    /// arguments. A failure here is not reported: [`install`] tries again and says why.
    pub fn early() {
        if HANDLERS.get().is_none() {
            if let Ok(shared) = start() {
                let _ = HANDLERS.set(shared);
            }
        }
    }

    /// Gives the default handling back, for the commands that do not stop gracefully: a
    /// signal caught since [`early`] ends the process now as it would have then. A signal
    /// ignored at the start stays ignored, but for a `count` (`--estimate`, `--algo`): SIGINT
    /// and SIGTERM end it even then, as they stop every other count (whoever sends them to a
    /// count started by a script's `&` means it to stop).
    pub fn release(count: bool) {
        let Some(shared) = HANDLERS.get() else {
            return;
        };
        if let Some(signal) = shared.release(count) {
            die_of(signal);
        }
    }

    /// The signals, claimed by a command that stops gracefully on them.
    pub struct Caught(Arc<Shared>);

    impl Caught {
        /// The first signal caught, if any.
        pub fn caught(&self) -> Option<i32> {
            Some(self.0.caught.load(Ordering::SeqCst)).filter(|&s| s != 0)
        }

        /// Hands the thread the run to cancel; a signal caught before (while the arguments
        /// were parsed, the run planned or its checkpoint read) cancels it now, before it
        /// counts anything.
        pub fn attach(&self, run: Arc<Run>) {
            let mut state = self.0.state();
            if self.caught().is_some() {
                run.cancel();
            }
            state.target = Target::Run(run);
        }

        /// Raises `flag` at the first signal caught, at once when one was caught already: the
        /// way of a search that polls a flag (`complete --count`).
        pub fn raise(&self, flag: Arc<AtomicBool>) {
            let mut state = self.0.state();
            if self.caught().is_some() {
                flag.store(true, Ordering::SeqCst);
            }
            state.target = Target::Flag(flag);
        }

        /// Calls `notify` with the first signal caught, at once when one was caught already
        /// (the server's way to learn of it).
        pub fn notify(&self, notify: impl Fn(i32) + Send + 'static) {
            let mut state = self.0.state();
            if let Some(signal) = self.caught() {
                notify(signal);
            }
            state.target = Target::Notify(Box::new(notify));
        }

        /// Calls `notify` with the first signal caught, as [`Caught::notify`] does; a second
        /// signal calls `before_exit` before it ends the process (the terminal viewer's way to
        /// give the terminal back however it is stopped).
        pub fn notify_then(&self, notify: impl Fn(i32) + Send + 'static, before_exit: fn()) {
            let mut state = self.0.state();
            if let Some(signal) = self.caught() {
                notify(signal);
            }
            state.target = Target::Quit {
                notify: Box::new(notify),
                before_exit,
            };
        }

        /// Catches SIGQUIT as well (the server stops on it as on SIGTERM), unless it was
        /// ignored at the start.
        pub fn with_quit(self) -> anyhow::Result<Caught> {
            if !self.0.ignored_at_start.contains(&SIGQUIT) {
                self.0
                    .handle
                    .add_signal(SIGQUIT)
                    .context("cannot install the handler of SIGQUIT")?;
            }
            Ok(self)
        }
    }

    /// Claims the signals for a command that stops gracefully on them, installing the
    /// handlers if [`early`] could not. Called before the work is planned, so that no signal
    /// is lost; or, after [`release`], when the command reaches the work that stops
    /// gracefully (a signal before that ended the process).
    pub fn install() -> anyhow::Result<Caught> {
        let shared = match HANDLERS.get() {
            Some(shared) => Arc::clone(shared),
            None => {
                let shared = start()?;
                Arc::clone(HANDLERS.get_or_init(|| shared))
            }
        };
        shared.state().mode = Mode::Claimed;
        Ok(Caught(shared))
    }

    /// The exit status after `signal`: 130, 143, 129 or 131.
    pub fn status_of(signal: i32) -> Status {
        match signal {
            SIGTERM => Status::Terminated,
            SIGHUP => Status::HungUp,
            SIGQUIT => Status::Quit,
            _ => Status::Interrupted,
        }
    }

    /// The name of `signal`, as `SIGTERM`, for messages.
    pub fn name_of(signal: i32) -> &'static str {
        signal_hook::low_level::signal_name(signal).unwrap_or("a signal")
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

    #[cfg(test)]
    mod tests {
        use super::*;

        /// The handling state as [`early`] leaves it, apart from the process's own (no
        /// handler is installed for an empty list): `ignored_at_start` as given.
        fn waiting(ignored_at_start: Vec<i32>) -> Arc<Shared> {
            let signals = Signals::new(Vec::<i32>::new()).unwrap();
            Arc::new(Shared::waiting(ignored_at_start, signals.handle()))
        }

        /// A SIGINT that met the handler while the arguments were parsed, in a process that
        /// started with it ignored (a script's `queens complete --count FILE &`), stays
        /// ignored under the default handling, and must not stop `complete --count` when it
        /// claims the signals past its read: it was kept, and the count stopped at once,
        /// "interrupted after finding 0 completions".
        #[test]
        fn a_signal_that_stays_ignored_is_not_kept_for_a_later_claim() {
            let shared = waiting(vec![SIGINT]);
            shared.on(SIGINT);
            assert_eq!(shared.release(false), None);
            shared.state().mode = Mode::Claimed;
            let claimed = Caught(Arc::clone(&shared));
            assert_eq!(claimed.caught(), None);
            let stop = Arc::new(AtomicBool::new(false));
            claimed.raise(Arc::clone(&stop));
            assert!(!stop.load(Ordering::SeqCst));
            // A signal sent to it once claimed stops it, as it stops a count.
            shared.on(SIGINT);
            assert!(stop.load(Ordering::SeqCst));
            assert_eq!(claimed.caught(), Some(SIGINT));
        }

        /// One not ignored at the start ends the process at the release (the caller dies of
        /// it); a `count` does not keep SIGINT ignored.
        #[test]
        fn a_signal_kept_that_is_not_ignored_ends_the_process_at_the_release() {
            let shared = waiting(vec![]);
            shared.on(SIGTERM);
            assert_eq!(shared.release(false), Some(SIGTERM));
            let count = waiting(vec![SIGINT]);
            count.on(SIGINT);
            assert_eq!(count.release(true), Some(SIGINT));
        }
    }
}

#[cfg(not(unix))]
mod imp {
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;

    use queens_core::count::Run;

    use crate::output::note;
    use crate::status::Status;

    pub struct Caught;

    impl Caught {
        pub fn caught(&self) -> Option<i32> {
            None
        }

        pub fn attach(&self, _run: Arc<Run>) {}

        pub fn raise(&self, _flag: Arc<AtomicBool>) {}

        pub fn notify(&self, _notify: impl Fn(i32) + Send + 'static) {}

        pub fn notify_then(&self, _notify: impl Fn(i32) + Send + 'static, _before_exit: fn()) {}

        pub fn with_quit(self) -> anyhow::Result<Caught> {
            Ok(self)
        }
    }

    pub fn early() {}

    pub fn release(_count: bool) {}

    pub fn install() -> anyhow::Result<Caught> {
        Ok(Caught)
    }

    pub fn status_of(_signal: i32) -> Status {
        Status::Interrupted
    }

    pub fn name_of(_signal: i32) -> &'static str {
        "Ctrl-C"
    }
}

pub use imp::{early, install, name_of, release, status_of, Caught};
