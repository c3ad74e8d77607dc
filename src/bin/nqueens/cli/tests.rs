//! The command line's parsing: values, refusals and the short form of errors.

use super::*;

#[test]
fn every_command_has_a_manual_page_by_its_name() {
    let names: Vec<String> = Cli::command()
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .collect();
    assert_eq!(names, PAGES);
}

#[test]
fn sizes() {
    assert_eq!(parse_sizes("8"), Ok(8..=8));
    assert_eq!(parse_sizes("8..16"), Ok(8..=16));
    assert_eq!(parse_sizes("8..=16"), Ok(8..=16));
    assert!(parse_sizes("0")
        .unwrap_err()
        .contains("between 1 and 32, got 0"));
    assert!(parse_sizes("33").unwrap_err().contains("got 33"));
    assert!(parse_sizes("-4").unwrap_err().contains("got -4"));
    assert!(parse_sizes("x").unwrap_err().contains("not a board size"));
    assert!(parse_sizes("9..8").unwrap_err().contains("empty"));
    assert!(parse_sizes("8..").unwrap_err().contains("not a board size"));
}

#[test]
fn threads() {
    assert_eq!(parse_threads("3"), Ok(3));
    assert!(parse_threads("0").unwrap_err().contains("at least 1"));
    assert!(parse_threads("many").unwrap_err().contains("not a number"));
}

#[test]
fn shards() {
    assert_eq!(parse_shard("auto"), Ok(ShardArg::Auto));
    assert_eq!(
        parse_shard("3/8"),
        Ok(ShardArg::Given(Shard::new(3, 8).unwrap()))
    );
    assert!(parse_shard("0/8")
        .unwrap_err()
        .contains("numbered from 1 to 8"));
    assert!(parse_shard("9/8")
        .unwrap_err()
        .contains("shard 9/8 does not exist"));
    assert!(parse_shard("1/0").unwrap_err().contains("got 0"));
    assert!(parse_shard("3").unwrap_err().contains("write I/K"));
}

#[test]
fn limits() {
    assert_eq!(parse_limit("5"), Ok(5));
    assert!(parse_limit("0")
        .unwrap_err()
        .contains("at least 1 solution, got 0"));
    assert!(parse_limit("-3").unwrap_err().contains("got -3"));
    assert!(parse_limit("lots").unwrap_err().contains("not a number"));
}

#[test]
fn the_command_line_names_the_library_s_engines_and_formats() {
    for arg in EngineArg::value_variants() {
        let name = arg.to_possible_value().unwrap().get_name().to_string();
        assert_eq!(name, Engine::from(*arg).name());
    }
    assert_eq!(EngineArg::value_variants().len(), Engine::ALL.len());
    for arg in FormatArg::value_variants() {
        let name = arg.to_possible_value().unwrap().get_name().to_string();
        assert_eq!(name, Format::from(*arg).name());
    }
    assert_eq!(FormatArg::value_variants().len(), Format::ALL.len());
}

#[test]
fn clap_definition_is_consistent() {
    use clap::CommandFactory;
    Cli::command().debug_assert();
}
