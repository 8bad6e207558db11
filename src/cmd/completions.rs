//! `queens completions SHELL` and `queens man`: the shell completion script and the roff manual
//! page, generated from the very clap definitions that parse the command line, so neither can
//! drift from the flags.
//!
//! May call: [`crate::cli`] (the definitions), `clap_complete` and `clap_mangen`.

use std::io::Write;

use clap::CommandFactory;

use crate::cli::{Cli, CompletionsArgs, ManArgs};
use crate::status::Status;

/// Runs `queens completions SHELL`.
pub fn run(args: &CompletionsArgs) -> anyhow::Result<Status> {
    let mut command = Cli::command();
    // Into memory first: clap_complete panics on a write that fails (standard output full or
    // closed), where the error must be the one of any other output.
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "queens", &mut script);
    let mut out = super::stdout();
    out.write_all(&script)?;
    out.flush()?;
    Ok(Status::Success)
}

/// Runs `queens man [COMMAND]`: the top page, queens(1), or the page of one subcommand,
/// queens-COMMAND(1), which the top page cites.
pub fn man(args: &ManArgs) -> anyhow::Result<Status> {
    let mut top = Cli::command().disable_help_subcommand(true);
    top.build();
    let page = match &args.command {
        None => top,
        Some(name) => match top.find_subcommand(name) {
            Some(sub) => sub.clone(),
            None => {
                let names: Vec<&str> = top.get_subcommands().map(|c| c.get_name()).collect();
                anyhow::bail!(
                    "queens man: no command '{name}' (the commands: {})",
                    names.join(", ")
                );
            }
        },
    };
    let mut roff = Vec::new();
    render(&page, &mut roff)?;
    let mut out = super::stdout();
    out.write_all(one_preamble(&String::from_utf8_lossy(&roff)).as_bytes())?;
    out.flush()?;
    Ok(Status::Success)
}

/// `roff` with the preamble that defines `\*(Aq` once, at the top: clap_mangen writes it before
/// each section rendered on its own.
fn one_preamble(roff: &str) -> String {
    let mut kept = 0;
    let mut out = String::new();
    for line in roff.lines() {
        if line.starts_with(".ie \\n(.g .ds Aq") || line.starts_with(".el .ds Aq") {
            kept += 1;
            if kept > 2 {
                continue;
            }
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// The manual page of `cmd`: clap_mangen's sections (name, synopsis, description, options,
/// subcommands, version), then the help's closing text in sections of its own: EXAMPLES, each
/// command in bold with what it does under it, EXIT STATUS, and any other paragraph as NOTES.
fn render(cmd: &clap::Command, out: &mut dyn Write) -> std::io::Result<()> {
    let man = clap_mangen::Man::new(cmd.clone());
    man.render_title(out)?;
    man.render_name_section(out)?;
    man.render_synopsis_section(out)?;
    man.render_description_section(out)?;
    if cmd.get_arguments().any(|a| !a.is_hide_set()) {
        man.render_options_section(out)?;
    }
    if cmd.has_subcommands() {
        man.render_subcommands_section(out)?;
    }
    if let Some(after) = cmd.get_after_help() {
        write!(out, "{}", closing_sections(&after.to_string()))?;
    }
    if cmd.get_version().is_some() {
        man.render_version_section(out)?;
    }
    Ok(())
}

/// The roff of a help's closing text (see [`render`]).
fn closing_sections(text: &str) -> String {
    let (mut examples, mut status, mut notes) = (String::new(), String::new(), String::new());
    for paragraph in text.split("\n\n") {
        let paragraph = paragraph.trim_end();
        if let Some(rest) = paragraph.strip_prefix("Examples:") {
            for line in rest.lines().filter(|l| !l.trim().is_empty()) {
                // `  COMMAND   what it does`: the command ends at the first run of 2 spaces.
                let line = line.trim();
                let (command, what) = match line.find("  ") {
                    Some(at) => (&line[..at], line[at..].trim()),
                    None => (line, ""),
                };
                let what = if what.is_empty() { "\u{a0}" } else { what };
                examples.push_str(&format!(".TP\n\\fB{}\\fR\n{}\n", roff(command), roff(what)));
            }
        } else if let Some(rest) = paragraph.strip_prefix("Exit status:") {
            status.push_str(&format!(".PP\n{}\n", roff(&joined(rest))));
        } else if !paragraph.trim().is_empty() {
            notes.push_str(&format!(".PP\n{}\n", roff(&joined(paragraph))));
        }
    }
    let mut out = String::new();
    for (title, body) in [
        ("EXAMPLES", examples),
        ("EXIT STATUS", status),
        ("NOTES", notes),
    ] {
        if !body.is_empty() {
            out.push_str(&format!(".SH \"{title}\"\n{body}"));
        }
    }
    out
}

/// The lines of a paragraph as one line.
fn joined(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `text` safe in roff: backslashes and hyphens escaped, and a leading dot or quote kept from
/// being read as a request.
fn roff(text: &str) -> String {
    let escaped = text.replace('\\', "\\e").replace('-', "\\-");
    if escaped.starts_with('.') || escaped.starts_with('\'') {
        format!("\\&{escaped}")
    } else {
        escaped
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_help_s_closing_text_becomes_examples_exit_status_and_notes() {
        let roffed = closing_sections(
            "Examples:\n  queens count 14          365596\n  queens man\n\nA note -- here.\n\n\
             Exit status: 0 success,\n2 bad usage.",
        );
        assert_eq!(
            roffed,
            ".SH \"EXAMPLES\"\n.TP\n\\fBqueens count 14\\fR\n365596\n.TP\n\\fBqueens man\\fR\n\u{a0}\n\
             .SH \"EXIT STATUS\"\n.PP\n0 success, 2 bad usage.\n.SH \"NOTES\"\n.PP\nA note \\-\\- here.\n"
        );
        assert_eq!(roff(".x 'y"), "\\&.x 'y");
        assert_eq!(roff("a\\b"), "a\\eb");
        let twice = ".ie \\n(.g .ds Aq \\(aq\n.el .ds Aq '\n.TH x\n.ie \\n(.g .ds Aq \\(aq\n.el .ds Aq '\n.SH A\n";
        assert_eq!(
            one_preamble(twice),
            ".ie \\n(.g .ds Aq \\(aq\n.el .ds Aq '\n.TH x\n.SH A\n"
        );
    }
}
