//! The arguments of `queens browse`.
//!
//! May call: [`super::shared`].

use clap::Args;

use super::shared::{AlgoArg, Size};

/// `queens browse`.
#[derive(Debug, Args)]
pub struct BrowseArgs {
    #[command(flatten)]
    pub size: Size,
    /// Start with only the solutions distinct under rotations and reflections (`u` toggles).
    #[arg(long)]
    pub unique: bool,
    /// The solver whose search `t` plays (`a` switches to the next one while playing).
    #[arg(long, value_enum, default_value_t = AlgoArg::BACKTRACK)]
    pub algo: AlgoArg,
}
