//! `queens browse` is interactive: without a terminal it refuses clearly instead of drawing
//! escape codes into a pipe. (Its screen and keys are tested on ratatui's `TestBackend` in
//! `src/browse`.)

use crate::common::*;

#[test]
fn browse_refuses_to_run_when_standard_output_is_not_a_terminal() {
    fails_with("browse 8", 2, &["needs a terminal"]).stdout_is("");
}

#[test]
fn browse_refuses_boards_above_its_limit_naming_the_size() {
    fails_with("browse 15", 2, &["N = 15"]).stdout_is("");
    // Past what the machine's numbers hold, the limit named is still the viewer's own.
    fails_with(
        "browse 99999999999999999999999 --algo bfs",
        2,
        &["is too large: at most 14 for `browse`"],
    )
    .stdout_is("");
}

/// What a refusal suggests works for that board: `list` where the bitboard solver takes it, an
/// SVG drawing up to its limit, the text of a solution past that.
#[test]
fn the_commands_a_refusal_suggests_take_the_board() {
    for n in ["15", "65", "200000"] {
        let out = queens().args(["browse", n]).output().expect("queens runs");
        let text = String::from_utf8_lossy(&out.stderr).to_string();
        let suggested: Vec<&str> = text.split('`').skip(1).step_by(2).collect();
        assert!(!suggested.is_empty(), "{text}");
        for command in suggested {
            let words: Vec<&str> = command.split(' ').skip(1).collect();
            // (`list 15` prints 2.3 million lines: none of them is kept.)
            let ran = std::process::Command::new(assert_cmd::cargo::cargo_bin("queens"))
                .args(&words)
                .stdout(std::process::Stdio::null())
                .output()
                .expect("queens runs");
            assert!(ran.status.success(), "N = {n}: `{command}` fails: {ran:?}");
        }
    }
}

#[test]
fn browse_refuses_a_size_of_zero() {
    fails_with("browse 0", 2, &["at least 1"]);
}

/// `queens browse` on a pseudo-terminal of its own (its controlling terminal, in a session of
/// its own), as a person's terminal window runs it.
#[cfg(target_os = "linux")]
mod on_a_terminal {
    use std::fs::File;
    use std::io::Read;
    use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
    use std::os::unix::process::{CommandExt, ExitStatusExt};
    use std::process::{Child, Command, Stdio};
    use std::thread::sleep;
    use std::time::{Duration, Instant};

    /// How the viewer is started on the terminal.
    #[derive(Clone, Copy, PartialEq, Debug)]
    enum How {
        /// As a terminal window starts a program.
        Plain,
        /// With SIGHUP ignored, as `nohup` starts a program.
        Nohup,
        /// In a session of its own without a controlling terminal (`setsid`), its standard
        /// input empty, its outputs still on the terminal.
        Detached,
    }

    /// A pseudo-terminal of `rows` x `cols`: its master side, and `queens browse 6` started on
    /// its slave side as `how` says.
    struct Session {
        master: Option<File>,
        slave: OwnedFd,
        child: Child,
    }

    impl Session {
        fn start(rows: u16, cols: u16, how: How) -> Session {
            Session::start_with(rows, cols, how, None)
        }

        /// [`Session::start`] with `COLORTERM` set to `colorterm` (unset where `None`), and
        /// `NO_COLOR` unset.
        fn start_with(rows: u16, cols: u16, how: How, colorterm: Option<&str>) -> Session {
            let (mut master, mut slave) = (-1, -1);
            let size = libc::winsize {
                ws_row: rows,
                ws_col: cols,
                ws_xpixel: 0,
                ws_ypixel: 0,
            };
            // SAFETY: `openpty` writes two descriptors into the locals and reads `size`.
            let opened = unsafe {
                libc::openpty(
                    &mut master,
                    &mut slave,
                    std::ptr::null_mut(),
                    std::ptr::null(),
                    &size,
                )
            };
            assert_eq!(opened, 0, "openpty");
            // Neither is inherited by the child (but as its standard streams): the terminal
            // closes when this test closes the master side.
            for fd in [master, slave] {
                // SAFETY: sets a flag of a descriptor just opened.
                unsafe { libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC) };
            }
            // SAFETY: both descriptors were just opened and are owned here alone.
            let (master, slave) =
                unsafe { (File::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) };
            let stdio = |fd: &OwnedFd| Stdio::from(fd.try_clone().expect("a descriptor"));
            let mut command = Command::new(assert_cmd::cargo::cargo_bin("queens"));
            command
                .args(["browse", "6"])
                .env("TERM", "xterm-256color")
                .env_remove("COLORTERM")
                .env_remove("NO_COLOR")
                .stdin(if how == How::Detached {
                    Stdio::null()
                } else {
                    stdio(&slave)
                })
                .stdout(stdio(&slave))
                .stderr(stdio(&slave));
            // SAFETY: only async-signal-safe calls between fork and exec.
            unsafe {
                command.pre_exec(move || {
                    if how == How::Nohup {
                        libc::signal(libc::SIGHUP, libc::SIG_IGN);
                    }
                    if libc::setsid() < 0
                        || (how != How::Detached && libc::ioctl(0, libc::TIOCSCTTY, 0) < 0)
                    {
                        return Err(std::io::Error::last_os_error());
                    }
                    Ok(())
                });
            }
            if let Some(colorterm) = colorterm {
                command.env("COLORTERM", colorterm);
            }
            let child = command.spawn().expect("queens starts");
            Session {
                master: Some(master),
                slave,
                child,
            }
        }

        /// Everything written to the terminal within `wait`.
        fn read_for(&self, wait: Duration) -> Vec<u8> {
            let end = Instant::now() + wait;
            let mut out = Vec::new();
            let Some(mut master) = self.master.as_ref() else {
                return out;
            };
            while let Some(left) = end.checked_duration_since(Instant::now()) {
                let mut fd = libc::pollfd {
                    fd: master.as_raw_fd(),
                    events: libc::POLLIN,
                    revents: 0,
                };
                let ms = left.as_millis().clamp(1, 1000) as i32;
                // SAFETY: `poll` reads and writes the one `pollfd` of this frame.
                if unsafe { libc::poll(&mut fd, 1, ms) } <= 0 {
                    continue;
                }
                let mut buf = [0u8; 1 << 16];
                match master.read(&mut buf) {
                    Ok(read) if read > 0 => out.extend_from_slice(&buf[..read]),
                    _ => break,
                }
            }
            out
        }

        /// Everything written to the terminal until the viewer has drawn its first screen
        /// (entered the alternate screen and hidden the cursor), at most 10 s, and 200 ms more:
        /// a fixed wait is too short on a busy machine.
        fn read_until_drawn(&self) -> Vec<u8> {
            let end = Instant::now() + Duration::from_secs(10);
            let mut out = Vec::new();
            let has = |out: &[u8], p: &[u8]| out.windows(p.len()).any(|w| w == p);
            while Instant::now() < end && !(has(&out, b"\x1b[?1049h") && has(&out, b"\x1b[?25l")) {
                let more = self.read_for(Duration::from_millis(100));
                if more.is_empty() && self.master.is_none() {
                    break;
                }
                out.extend(more);
            }
            out.extend(self.read_for(Duration::from_millis(200)));
            out
        }

        /// The exit status (its code, or 128 + the signal that ended it), waiting at most 10 s.
        fn status_within_10s(&mut self) -> Option<i32> {
            let end = Instant::now() + Duration::from_secs(10);
            while Instant::now() < end {
                if let Some(status) = self.child.try_wait().expect("wait") {
                    return Some(
                        status
                            .code()
                            .unwrap_or_else(|| 128 + status.signal().unwrap_or(0)),
                    );
                }
                sleep(Duration::from_millis(20));
            }
            let _ = self.child.kill();
            None
        }

        /// Whether the terminal is back in its ordinary mode: lines read whole, keys echoed.
        fn cooked(&self) -> bool {
            // SAFETY: `tcgetattr` fills the zeroed `termios` owned by this frame.
            let mut mode: libc::termios = unsafe { std::mem::zeroed() };
            let got = unsafe { libc::tcgetattr(self.slave.as_raw_fd(), &mut mode) };
            got == 0 && mode.c_lflag & libc::ICANON != 0 && mode.c_lflag & libc::ECHO != 0
        }
    }

    /// Whether `out` left the alternate screen and showed the cursor after it last took them.
    fn restored(out: &[u8]) -> bool {
        let last = |pattern: &[u8]| out.windows(pattern.len()).rposition(|w| w == pattern);
        let (entered, left) = (last(b"\x1b[?1049h"), last(b"\x1b[?1049l"));
        let (hidden, shown) = (last(b"\x1b[?25l"), last(b"\x1b[?25h"));
        entered.is_some() && left > entered && shown > hidden
    }

    #[test]
    fn a_signal_ends_the_viewer_with_its_status_and_the_terminal_restored() {
        for (signal, status) in [
            (libc::SIGTERM, 143),
            (libc::SIGHUP, 129),
            (libc::SIGINT, 130),
            (libc::SIGQUIT, 131),
        ] {
            let mut session = Session::start(24, 80, How::Plain);
            let mut out = session.read_until_drawn();
            // SAFETY: sends a signal to the child this test started.
            unsafe { libc::kill(session.child.id() as i32, signal) };
            let code = session.status_within_10s();
            out.extend(session.read_for(Duration::from_millis(200)));
            assert_eq!(code, Some(status), "signal {signal}");
            assert!(
                restored(&out),
                "signal {signal}: {:?}",
                String::from_utf8_lossy(&out)
            );
            assert!(
                session.cooked(),
                "signal {signal}: the terminal is left raw"
            );
        }
    }

    /// Two signals at once: the second ends the viewer at once (129), or the first has
    /// already ended it (143); either way the terminal is given back.
    #[test]
    fn a_second_signal_ends_the_viewer_at_once_with_the_terminal_restored() {
        let mut session = Session::start(24, 80, How::Plain);
        let mut out = session.read_until_drawn();
        let pid = session.child.id() as i32;
        // SAFETY: sends signals to the child this test started.
        unsafe {
            libc::kill(pid, libc::SIGTERM);
            libc::kill(pid, libc::SIGHUP);
        }
        let code = session.status_within_10s();
        out.extend(session.read_for(Duration::from_millis(200)));
        assert!(matches!(code, Some(129 | 143)), "{code:?}");
        assert!(restored(&out), "{:?}", String::from_utf8_lossy(&out));
        assert!(session.cooked(), "the terminal is left raw");
    }

    #[test]
    fn a_terminal_that_says_it_is_enormous_is_drawn_within_bounds() {
        // 65535 x 65535 cells: two screen buffers of it would take 170 GB.
        let mut session = Session::start(u16::MAX, u16::MAX, How::Plain);
        let mut out = session.read_until_drawn();
        let mut master = session.master.as_ref().expect("open");
        std::io::Write::write_all(&mut master, b"q").expect("a key");
        assert_eq!(session.status_within_10s(), Some(0));
        out.extend(session.read_for(Duration::from_millis(200)));
        assert!(restored(&out) && session.cooked());
    }

    #[test]
    fn a_terminal_closed_under_it_ends_the_viewer() {
        // With SIGHUP ignored (under `nohup`) the viewer must see for itself that the terminal
        // is gone; with it, the signal ends it.
        for how in [How::Nohup, How::Plain] {
            let mut session = Session::start(24, 80, how);
            let _ = session.read_until_drawn();
            // The window closes: the master side goes.
            session.master = None;
            assert_eq!(session.status_within_10s(), Some(129), "{how:?}");
        }
    }

    /// The window closes while the viewer is drawing (a trace playing at full speed draws all
    /// the time), so a write fails under it: it still ends as a hang-up does, with nothing
    /// left to write the failure to. (ratatui's `Terminal`, dropped with its cursor hidden,
    /// writes to standard error with `eprintln!`, which panics on a terminal that is gone.)
    #[test]
    fn a_terminal_closed_while_it_draws_ends_the_viewer_as_a_hang_up() {
        for how in [How::Nohup, How::Plain] {
            for _ in 0..5 {
                let mut session = Session::start(24, 80, how);
                let _ = session.read_until_drawn();
                let mut master = session.master.as_ref().expect("open");
                // The search, played, at the fastest speed.
                std::io::Write::write_all(&mut master, b"t ++++++++++").expect("keys");
                let _ = session.read_for(Duration::from_millis(300));
                session.master = None;
                assert_eq!(session.status_within_10s(), Some(129), "{how:?}");
            }
        }
    }

    /// Reports no terminal sends, but that a paste or another program can put on the viewer's
    /// input: a cursor position or a mouse event at row or column 0, which crossterm's reader
    /// turns into `0 - 1`. The viewer ignores them as it ignores any input it does not know,
    /// and quits on the next key (it used to panic, status 101, in a debug build, where that
    /// subtraction is checked).
    #[test]
    fn malformed_terminal_reports_on_its_input_are_ignored() {
        for report in [&b"\x1b[0;0R"[..], b"\x1b[M   ", b"\x1b[<0;0;0M"] {
            let shown = String::from_utf8_lossy(report);
            let mut session = Session::start(24, 80, How::Plain);
            let mut out = session.read_until_drawn();
            let mut master = session.master.as_ref().expect("open");
            std::io::Write::write_all(&mut master, report).expect("a report");
            out.extend(session.read_for(Duration::from_millis(300)));
            let mut master = session.master.as_ref().expect("open");
            std::io::Write::write_all(&mut master, b"q").expect("a key");
            let code = session.status_within_10s();
            out.extend(session.read_for(Duration::from_millis(200)));
            let text = String::from_utf8_lossy(&out);
            assert_eq!(code, Some(0), "{shown:?}: {text}");
            assert!(restored(&out) && session.cooked(), "{shown:?}: {text:?}");
        }
    }

    /// 24-bit colour codes only where `COLORTERM` says the terminal draws them; elsewhere the
    /// nearest of the 256-colour palette, which every colour terminal draws.
    #[test]
    fn colours_are_24_bit_only_where_colorterm_says_so() {
        let has = |out: &[u8], p: &[u8]| out.windows(p.len()).any(|w| w == p);
        for colorterm in [None, Some("256color"), Some("truecolor"), Some("24bit")] {
            let mut session = Session::start_with(24, 80, How::Plain, colorterm);
            let mut out = session.read_until_drawn();
            let mut master = session.master.as_ref().expect("open");
            std::io::Write::write_all(&mut master, b"q").expect("a key");
            assert_eq!(session.status_within_10s(), Some(0), "{colorterm:?}");
            out.extend(session.read_for(Duration::from_millis(200)));
            let true_colour = matches!(colorterm, Some("truecolor" | "24bit"));
            // The light squares' background, #f0d9b5, and in 256 colours its nearest, 223.
            let text = String::from_utf8_lossy(&out);
            assert_eq!(
                has(&out, b"48;2;240;217;181m"),
                true_colour,
                "{colorterm:?} {text:?}"
            );
            assert_eq!(
                has(&out, b"48;5;223m"),
                !true_colour,
                "{colorterm:?} {text:?}"
            );
            // No 24-bit code at all (38;2;R;G;B or 48;2;R;G;B) without it.
            assert_eq!(has(&out, b"8;2;"), true_colour, "{colorterm:?} {text:?}");
        }
    }

    #[test]
    fn without_a_controlling_terminal_it_says_so_and_writes_no_escape_codes() {
        let mut session = Session::start(24, 80, How::Detached);
        let out = session.read_for(Duration::from_millis(800));
        assert_eq!(session.status_within_10s(), Some(2));
        let text = String::from_utf8_lossy(&out);
        assert!(text.contains("needs an interactive terminal"), "{text}");
        assert!(!text.contains("\x1b[?1049"), "{text:?}");
    }
}
