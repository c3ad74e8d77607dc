//! The manual pages, one per command: `nqueens.1` and `nqueens-count.1`, `nqueens-merge.1`, …,
//! each with its options and its examples, rendered in roff from the command line's own
//! definitions (so a page never disagrees with `--help`).
//!
//! clap_mangen renders every section but the examples, which it puts under "EXTRA" as text to
//! be filled, joining the lines of each example. Here they get an EXAMPLES section in no-fill
//! mode (`.nf`), laid out as `--help` shows them.

use roff::{roman, Roff};

/// One manual page: its file name (`nqueens-count.1`) and its roff text.
#[derive(Debug, Clone, PartialEq)]
pub struct Page {
    pub file: String,
    pub roff: Vec<u8>,
}

/// Every page of `program`: its own, then one per visible subcommand, in the order `--help`
/// lists them.
pub fn pages(program: clap::Command) -> Vec<Page> {
    let mut program = program.disable_help_subcommand(true);
    program.build();
    let mut pages = vec![page(&program)];
    pages.extend(
        program
            .get_subcommands()
            .filter(|c| !c.is_hide_set())
            .map(page),
    );
    pages
}

/// The page of `command`: clap_mangen's sections, then EXAMPLES (from the help's "Examples:"
/// text) as written, then the version.
fn page(command: &clap::Command) -> Page {
    let man = clap_mangen::Man::new(command.clone());
    let mut roff = Vec::new();
    render(&man, command, &mut roff).expect("a page renders into memory");
    Page {
        file: man.get_filename(),
        roff,
    }
}

/// Writes the page `man` of `command` to `w`.
fn render(man: &clap_mangen::Man, command: &clap::Command, w: &mut Vec<u8>) -> std::io::Result<()> {
    man.render_title(w)?;
    man.render_name_section(w)?;
    man.render_synopsis_section(w)?;
    man.render_description_section(w)?;
    man.render_options_section(w)?;
    if command.has_subcommands() {
        man.render_subcommands_section(w)?;
    }
    if let Some(examples) = command.get_after_help() {
        w.extend(examples_section(&examples.to_string()).into_bytes());
    }
    man.render_version_section(w)
}

/// The EXAMPLES section of a help's "Examples:" text: each line as it is, in no-fill mode, so
/// that an example and its explanation keep their columns.
fn examples_section(help: &str) -> String {
    let lines = help
        .lines()
        .skip_while(|line| line.trim_end() == "Examples:" || line.trim().is_empty());
    let mut roff = Roff::new();
    roff.control("SH", ["EXAMPLES"]).control("nf", []);
    for line in lines {
        roff.text([roman(line)]);
    }
    roff.control("fi", []);
    roff.to_roff()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn examples_keep_their_lines_and_columns() {
        let text = examples_section(
            "Examples:\n  nqueens count 8      count the 92 solutions\n  nqueens count 8..16\n",
        );
        assert!(text.starts_with(".SH EXAMPLES\n.nf\n"), "{text}");
        assert!(text.trim_end().ends_with(".fi"), "{text}");
        // Each example on its own line, hyphens and spaces escaped but not reflowed.
        let body: Vec<&str> = text.lines().skip(2).take(2).collect();
        assert_eq!(body.len(), 2, "{text}");
        assert!(body[0].contains("nqueens count 8") && body[0].contains("count the 92"));
        assert!(body[1].contains("nqueens count 8..16"), "{text}");
    }
}
