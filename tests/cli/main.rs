//! The command-line integration suite: runs the real `queens` binary. One module per area.

mod common;
#[path = "../support/serve.rs"]
mod serving;

mod audits;
mod basics;
mod browse;
mod counting;
mod edges;
mod help;
mod huge;
mod json;
mod limits;
mod no_abort;
mod reliability;
mod robust;
mod serve;
mod snapshots;
mod svg;
mod svg_large;
mod trace;
mod trace_board;
