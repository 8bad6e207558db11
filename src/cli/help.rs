//! The text after each subcommand's `--help` (and the top level's): examples and exit
//! statuses. `tests/cli/help.rs` checks that the exit statuses named here are the ones the
//! commands end with.
//!
//! May call: nothing; plain text.

pub const TOP_HELP: &str = "\
Examples:
  queens solve 8                       the first solution of the 8x8 board, drawn
  queens list 8 | queens verify        list the 92 solutions and check each one
  queens count 14                      365596, by the counting engine
  queens trace 4 --format board        every step of backtracking on 4x4
  queens serve --open                  the board viewer in a web browser
  queens completions bash > ~/.local/share/bash-completion/completions/queens
  queens man > queens.1                the manual page

Run `queens help COMMAND` (or `queens COMMAND --help`) for a command's flags, examples and exit
statuses.";

pub const COMPLETIONS_HELP: &str = "\
Examples:
  queens completions bash > ~/.local/share/bash-completion/completions/queens
  queens completions zsh > ~/.zfunc/_queens        (with fpath+=~/.zfunc before compinit)
  queens completions fish > ~/.config/fish/completions/queens.fish
  queens completions powershell >> $PROFILE

Exit status: 0 success, 2 bad usage or error.";

pub const MAN_HELP: &str = "\
Examples:
  queens man > queens.1 && man ./queens.1
  queens man count > queens-count.1                 the page of one command, queens-count(1)
  for c in '' solve list count merge; do queens man $c > queens${c:+-$c}.1; done

Exit status: 0 success, 2 bad usage or error.";

pub const SOLVE_HELP: &str = "\
Examples:
  queens solve 8                                  the first solution, drawn as a board
  queens solve 1000000 --format positions | wc -c   one solution of a million queens
  queens solve 50 --algo min-conflicts --seed 7   a random solution, reproducible by its seed
  queens solve 50 --algo min-conflicts --format json   the solution with its seed, as JSON

Exit status: 0 a solution was printed, 1 the board has none (N = 2, 3), 2 bad usage or error.";

pub const LIST_HELP: &str = "\
Examples:
  queens list 8 | head -3              the first three solutions
  queens list 8 --unique --format board  one board per symmetry class (12)
  queens list 6 --format svg --out pics  one SVG file per solution

Exit status: 0 success (also when a closed pipe ends the listing), 2 bad usage or error.";

pub const COUNT_HELP: &str = "\
Limits: the counting engine handles N up to 32 (--algo counts by enumeration, up to that
algorithm's own limit).

Examples:
  queens count 14                              365596
  queens count 12 --unique                     1787 symmetry classes
  queens count 20 --shard 3/8 --format json    one part of eight, for `queens merge`
  queens count 18 --checkpoint n18.ckpt        resumable: run it again after an interruption

Exit status: 0 success, 1 --recount found a subproblem that disagrees with its checkpoint, 2 bad
usage or error (also after printing the result when the last checkpoint save failed); after
saving the checkpoint, 130 interrupted by Ctrl-C (SIGINT), 129 hung up (SIGHUP), 143 terminated
(SIGTERM, as schedulers stop a job).";

pub const VERIFY_HELP: &str = "\
Examples:
  queens list 8 | queens verify                  every line is a solution
  echo '0 4 7 5 2 6 3 1' | queens verify         names the two queens that attack each other
  queens verify boards.txt                       positions lines and drawn boards, mixed
  queens list 8 | queens verify --format json    one JSON object per placement read

Exit status: 0 every placement is a solution, 1 at least one is not, 2 unreadable input or error.";

pub const BROWSE_HELP: &str = "\
Limits: boards up to N = 14 (the browser lists every solution).

Examples:
  queens browse 8             step through the 92 solutions of 8x8
  queens browse 10 --unique   only one solution per symmetry class

Exit status: 0 success, 2 bad usage, no terminal, or error; after restoring the terminal, 130
SIGINT sent by kill (Ctrl-C is a quit key), 129 SIGHUP or the terminal gone, 131 SIGQUIT, 143
SIGTERM.";

pub const TRACE_HELP: &str = "\
Examples:
  queens trace 4                                  every step of backtracking on 4x4
  queens trace 8 --algo recursive --summary       the counts only: 876 tries, 113 placements
  queens trace 6 --algo bfs --format json | head  one JSON object per event

Exit status: 0 success (also when a closed pipe ends the trace), 2 bad usage or error.";

pub const MERGE_HELP: &str = "\
A file holds one shard result or several, one JSON object per line (as collected from many
machines with `cat`). Every shard of the set must be there exactly once, all of the same N and
split.

Examples:
  queens merge part-*.json                 the total of all the parts
  cat parts/*.json > all.json && queens merge --unique all.json
  queens merge --recount 2 part-*.json     recount 2 random parts first, by the plain search
  queens merge --format json part-*.json   the sum as one JSON object (--json is the same)

The sum must be a possible count (an even total, classes between an eighth and a half of it),
whatever the checksums say. The parts may come from machines with any number of cores.

Exit status: 0 success, 1 a recounted part disagrees, 2 a missing, repeated, mismatched or
impossible part, unreadable input, or error.";

pub const COMPLETE_HELP: &str = "\
Examples:
  queens complete 8 --fixed 0:3,5:2        one solution with queens on (0,3) and (5,2)
  queens complete 10 --fixed 0:2 --count   how many solutions have a queen on (0,2)
  queens complete instance.param           a CSPLib problem 79 instance

Exit status: 0 a completion was printed (or counted), 1 there is none, 2 bad input or error.";

pub const SERVE_HELP: &str = "\
Examples:
  queens serve                  the viewer at http://127.0.0.1:8080/
  queens serve --port 0 --open  a free port, opened in the browser

Exit status: 130 stopped by Ctrl-C (SIGINT), 143 by SIGTERM, 129 by SIGHUP, 131 by SIGQUIT, each
after the answers under way; 2 the address cannot be bound, or another error.";
