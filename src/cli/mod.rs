//! The command line: raw flags parsed by clap. Each subcommand's arguments are a struct whose
//! `///` comments are its help text, in a file of its own (`cli/solve.rs`, `cli/count.rs`, ...);
//! the arguments several share are in [`shared`], the value parsers in [`parse`], the text after
//! each `--help` in [`help`]. `main` turns them into calls on the library.
//!
//! May call: the engine's lists and limits, and the output formats; no command.

mod browse;
mod complete;
mod count;
mod help;
mod list;
mod merge;
mod parse;
mod serve;
mod shared;
mod solve;
mod trace;
mod verify;

pub use browse::BrowseArgs;
pub use complete::CompleteArgs;
pub use count::{CountArgs, EngineArg, Progress};
pub use list::ListArgs;
pub use merge::{MergeArgs, Recount};
pub use parse::{shorten, too_large};
pub use serve::{ServeArgs, ServeLimits};
pub use shared::{ResultFormat, SearchArgs};
pub use solve::SolveArgs;
pub use trace::TraceArgs;
pub use verify::VerifyArgs;

use clap::{Args, Parser, Subcommand, ValueEnum};

use help::*;

/// The N-Queens toolkit: solve, list, count and verify placements of N queens on an N x N board.
#[derive(Debug, Parser)]
#[command(name = "queens", version, about, max_term_width = 100, after_help = TOP_HELP)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
    /// Colour in messages and help: auto (on a terminal, unless the NO_COLOR variable is set or
    /// TERM is dumb), always, or never.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto, global = true, help_heading = "Global options")]
    pub color: ColorChoice,
}

/// When `queens` colours what it writes for people (help, errors, the terminal viewer).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// Colour on a terminal, unless the NO_COLOR environment variable is set (and not empty) or
    /// TERM is dumb.
    Auto,
    /// Colour even into a pipe or a file.
    Always,
    /// No colour.
    Never,
}

/// The subcommands. Each one's `--help` ends with examples and its exit statuses.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print one solution of the N x N board: the lexicographically first where that is fast,
    /// else one built by a formula (N up to 10^8 and more).
    #[command(after_help = SOLVE_HELP)]
    Solve(SolveArgs),
    /// List every solution in lexicographic order, streamed.
    #[command(after_help = LIST_HELP)]
    List(ListArgs),
    /// Print the number of solutions as one integer line.
    #[command(after_help = COUNT_HELP)]
    Count(CountArgs),
    /// Read placements (positions lines or board blocks) and say whether each is a solution.
    #[command(after_help = VERIFY_HELP)]
    Verify(VerifyArgs),
    /// Step through the solutions in the terminal (arrow keys or j/k, u unique only, q quits).
    #[command(after_help = BROWSE_HELP)]
    Browse(BrowseArgs),
    /// Show every step of a search: squares tried, conflicts, placements, backtracks.
    #[command(after_help = TRACE_HELP)]
    Trace(TraceArgs),
    /// Sum the results of `queens count --shard I/M --format json`, refusing incomplete sets.
    #[command(after_help = MERGE_HELP)]
    Merge(MergeArgs),
    /// Complete a partly filled board: one solution containing the given queens, or how many.
    #[command(after_help = COMPLETE_HELP)]
    Complete(CompleteArgs),
    /// Serve the board viewer: a web page to browse every solution, and its JSON API.
    #[command(after_help = SERVE_HELP)]
    Serve(ServeArgs),
    /// Print the shell completion script of `queens` for bash, zsh, fish, PowerShell or elvish.
    #[command(after_help = COMPLETIONS_HELP)]
    Completions(CompletionsArgs),
    /// Print the manual page of `queens` (roff), from the same definitions as `--help`.
    #[command(after_help = MAN_HELP)]
    Man(ManArgs),
}

impl Command {
    /// The board size N of the command, when it has one on its command line.
    pub fn board_size(&self) -> Option<usize> {
        match self {
            Command::Solve(a) => Some(a.size.n),
            Command::List(a) => Some(a.size.n),
            Command::Count(a) => Some(a.size.n),
            Command::Trace(a) => Some(a.size.n),
            _ => None,
        }
    }

    /// The memory budget of the command, when it takes `--max-memory`.
    pub fn search_mut(&mut self) -> Option<&mut SearchArgs> {
        match self {
            Command::Solve(a) => Some(&mut a.search),
            Command::List(a) => Some(&mut a.search),
            Command::Count(a) => Some(&mut a.search),
            Command::Trace(a) => Some(&mut a.search),
            Command::Verify(a) => Some(&mut a.search),
            Command::Complete(a) => Some(&mut a.search),
            _ => None,
        }
    }
}

/// `queens completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell whose completion script to print.
    #[arg(value_enum, value_name = "SHELL")]
    pub shell: clap_complete::Shell,
}

/// `queens man`.
#[derive(Debug, Args)]
pub struct ManArgs {
    /// The command whose page to print (queens-COMMAND(1)); without it, the top page, queens(1).
    #[arg(value_name = "COMMAND", value_parser = clap::builder::PossibleValuesParser::new(MAN_PAGES))]
    pub command: Option<String>,
}

/// The commands `queens man` has a page for: every subcommand but `help` (its page would be
/// the top one, queens(1)). A test keeps the list the subcommands' own; being a list of
/// values, the shell completions offer it and a name not in it is refused with the list.
pub const MAN_PAGES: [&str; 11] = [
    "solve",
    "list",
    "count",
    "verify",
    "browse",
    "trace",
    "merge",
    "complete",
    "serve",
    "completions",
    "man",
];

#[cfg(test)]
mod tests {
    use super::parse::{parse_n_for, parse_square};
    use super::*;
    use clap::CommandFactory;
    use queens_core::Square;

    fn parse_n(s: &str) -> Result<usize, String> {
        parse_n_for(None, s)
    }

    #[test]
    fn the_command_line_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    /// `queens man` offers a page for every subcommand, and for nothing else.
    #[test]
    fn man_pages_are_the_subcommands() {
        let mut top = Cli::command();
        top.build();
        let commands: Vec<&str> = top
            .get_subcommands()
            .map(|c| c.get_name())
            .filter(|&name| name != "help")
            .collect();
        assert_eq!(commands, MAN_PAGES);
    }

    #[test]
    fn squares_are_row_colon_column() {
        assert_eq!(parse_square("2:5"), Ok(Square { row: 2, col: 5 }));
        assert!(parse_square("2,5").unwrap_err().contains("'2,5'"));
        assert!(parse_square("-1:0").is_err());
        assert!(parse_square("1:").is_err());
    }

    #[test]
    fn n_must_be_a_positive_whole_number() {
        assert_eq!(parse_n("8"), Ok(8));
        assert!(parse_n("0").unwrap_err().contains("at least 1"));
        assert!(parse_n("eight").unwrap_err().contains("'eight'"));
        assert!(parse_n("-3").is_err());
    }

    #[test]
    fn sizes_beyond_the_machine_say_too_large_with_the_commands_limit() {
        let two_to_64 = "18446744073709551616";
        assert_eq!(
            parse_n_for(Some("list"), two_to_64).unwrap_err(),
            "N = 18446744073709551616 is too large: at most 4294967295 for `list --algo backtrack`"
        );
        assert!(parse_n_for(Some("solve"), two_to_64)
            .unwrap_err()
            .ends_with("at most 18446744073709551615 for `solve --algo construct`"));
        // `browse` names its own limit, not an algorithm's: it draws boards up to N = 14.
        assert_eq!(
            parse_n_for(Some("browse"), two_to_64).unwrap_err(),
            "N = 18446744073709551616 is too large: at most 14 for `browse`"
        );
        let long = "9".repeat(1000);
        let err = parse_n(&long).unwrap_err();
        assert!(err.contains("(1000 digits) is too large"), "{err}");
        assert!(err.len() < 200, "{err}");
        assert!(parse_n(&"x".repeat(1000)).unwrap_err().len() < 200);
    }
}
