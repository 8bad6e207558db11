//! The shard results written and read back, each check's own error, and arbitrary or mutated
//! lines refused with a typed error, never a panic.

use super::check::covered;
use super::json::fields;
use super::*;
use crate::count::{Counts, Shard, Split, SPLIT};

/// A right result of shard `index` of `count` of N = 8 on the frame split.
fn good(index: u64, count: u64) -> String {
    let plan = Split::Frames.subproblems(8).unwrap();
    let counts = Counts {
        total: 40,
        unique: 5,
    };
    let shard = Shard::new(index, count).unwrap();
    result_line(8, counts, 0.021, Some(shard), SPLIT, plan)
}

/// The line with `from` replaced by `to`, its checksum recomputed: damage the checksum
/// does not catch, so that the checks after it are reached.
fn resummed(line: &str, from: &str, to: &str) -> String {
    let edited = line.replace(from, to);
    assert_ne!(edited, line, "{from} is not in {line}");
    let start = edited.find(",\"checksum\"").unwrap();
    let f = fields(&format!("{}}}", &edited[..start])).unwrap();
    let sum = covered(&f).checksum();
    format!("{},\"checksum\":\"{sum}\"}}", &edited[..start])
}

fn refusal(line: &str) -> ShardResultError {
    ShardResult::parse("p", line).unwrap_err()
}

#[test]
fn a_written_line_reads_back_as_the_same_result() {
    let line = good(2, 3);
    let part = ShardResult::parse("p", &line).unwrap();
    assert_eq!(part.shard, Shard::new(2, 3).unwrap());
    assert_eq!((part.counts.total, part.counts.unique), (40, 5));
    assert_eq!(part.seconds, 0.021);
    assert_eq!(part.to_line(), line);
    // Spaces, another order and escapes do not change what is read.
    let spaced = format!(
        " {{ \"checksum\" : {} , {} }} ",
        &line[line.find("\"fnv").unwrap()..line.len() - 1],
        &line[1..line.find(",\"checksum").unwrap()].replace("frame", "fr\\u0061me")
    );
    assert_eq!(ShardResult::parse("p", &spaced).unwrap(), part);
}

/// A time the reader would refuse (not a number, negative, past 10^12 seconds) is written
/// within its range, so that every line written reads back.
#[test]
fn any_time_is_written_as_one_the_reader_reads_back() {
    let plan = Split::Frames.subproblems(8).unwrap();
    let counts = Counts {
        total: 40,
        unique: 5,
    };
    let shard = Shard::new(0, 3).ok();
    let times = crate::count::types::TIMES_TO_RECORD;
    for (seconds, read) in times.into_iter().chain([(0.021, 0.021)]) {
        let line = result_line(8, counts, seconds, shard, SPLIT, plan);
        assert!(!line.contains("null") && !line.contains("-0"), "{line}");
        let back = ShardResult::parse("p", &line).unwrap();
        assert_eq!(back.seconds, read, "{seconds}");
        assert_eq!(back.to_line(), line);
    }
}

#[test]
fn the_line_matches_what_serde_json_wrote_before() {
    // As `queens count 12 --engine frame --shard 0/3 --json` printed it through serde.
    let plan = Split::Frames.subproblems(12).unwrap();
    let counts = Counts {
        total: 4748,
        unique: 601,
    };
    let line = result_line(12, counts, 1.0, Shard::new(0, 3).ok(), SPLIT, plan);
    assert!(
        line.starts_with(
            "{\"n\":12,\"total\":4748,\"unique\":601,\"seconds\":1.0,\"shard\":0,\
             \"shards\":3,\"split\":\"frame1-v1\",\"subproblems\":"
        ),
        "{line}"
    );
    // A whole count has no shard fields, and is no shard result.
    let whole = result_line(12, counts, 1.0, None, SPLIT, plan);
    assert!(!whole.contains("shard\""), "{whole}");
    assert!(matches!(
        refusal(&whole),
        ShardResultError::NotSharded { .. }
    ));
}

#[test]
fn each_check_refuses_with_its_own_error() {
    let line = good(0, 2);
    let cases: Vec<(String, &str)> = vec![
        ("hello".into(), "expected `{` at byte 1"),
        (
            line.replace("\"total\":40", "\"total\":41"),
            "checksum says",
        ),
        (
            line.replace(",\"checksum\"", ",\"extra\":1,\"checksum\""),
            "unknown field `extra`",
        ),
        (
            line.replace("{\"n\":8,", "{\"n\":8,\"n\":8,"),
            "duplicate field `n`",
        ),
        (line.replace("\"n\":8,", ""), "missing field `n`"),
        (line.replace("\"n\":8", "\"n\":8.0"), "`n` must be a whole"),
        (line.replace("\"n\":8", "\"n\":[8]"), "expected a number"),
        (
            line.replace("\"total\":40", &format!("\"total\":{}0", u128::MAX)),
            "`total` is out of range",
        ),
        (format!("{line}x"), "trailing characters"),
        (
            format!("{line:<width$}", width = MAX_LINE + 1),
            "more than the 4096",
        ),
        (
            line.replace(",\"checksum\":\"fnv1a64:", ",\"checksum\":null,\"x\":\""),
            "unknown field",
        ),
        (resummed(&line, "\"n\":8", "\"n\":33"), "N from 1 to 32"),
        (resummed(&line, "\"n\":8", "\"n\":0"), "N from 1 to 32"),
        (
            resummed(&line, "\"unique\":5", "\"unique\":50"),
            "more classes (50) than solutions (40)",
        ),
        (
            resummed(&line, "\"seconds\":0.021", "\"seconds\":-1"),
            "a time no run takes",
        ),
        (
            resummed(&line, "\"seconds\":0.021", "\"seconds\":1.7e308"),
            "a time no run takes",
        ),
        (
            resummed(&line, "\"shards\":2", "\"shards\":2000000"),
            "more than the 1048576",
        ),
        (
            resummed(&line, "\"shard\":0", "\"shard\":2"),
            "no valid \"shard\"",
        ),
        (
            resummed(&line, "\"shard\":0", "\"shard\":null"),
            "no valid \"shard\"",
        ),
        (
            resummed(&line, "frame1-v1", "frame2-v1"),
            "split frame2-v1, which this binary does not make of N = 8",
        ),
        (
            resummed(&line, "\"subproblems\":", "\"subproblems\":9"),
            "this binary splits N = 8 that way into",
        ),
    ];
    for (bad, message) in cases {
        let err = refusal(&bad).to_string();
        assert!(
            err.starts_with('p') && err.contains(message),
            "{bad}: {err}"
        );
        assert!(err.len() < 400, "{err}");
    }
    let no_sum = &line[..line.find(",\"checksum").unwrap()];
    assert!(matches!(
        refusal(&format!("{no_sum}}}")),
        ShardResultError::NoChecksum { .. }
    ));
}

#[test]
fn a_parser_builds_each_split_once() {
    let mut parser = Parser::new();
    for i in 0..5 {
        parser.parse("p", &good(i, 5)).unwrap();
    }
    assert_eq!(parser.known.len(), 1);
}

/// A byte of `line` changed, a byte inserted or a range removed.
fn mutate(line: &str, at: usize, byte: u8, how: u8) -> Vec<u8> {
    let mut bytes = line.as_bytes().to_vec();
    let at = at % (bytes.len() + 1);
    match how % 3 {
        0 if at < bytes.len() => bytes[at] = byte,
        1 => bytes.insert(at, byte),
        _ => {
            let end = (at + usize::from(byte % 8) + 1).min(bytes.len());
            bytes.drain(at.min(end)..end);
        }
    }
    bytes
}

proptest::proptest! {
    #[test]
    fn arbitrary_bytes_give_a_result_or_a_typed_error(
        bytes in proptest::collection::vec(proptest::prop_oneof![
            proptest::prelude::any::<u8>(),
            proptest::sample::select(b"{}[]\",:0123456789.eE-+ \\unlx".to_vec()),
        ], 0..300),
    ) {
        let text = String::from_utf8_lossy(&bytes);
        if let Err(err) = ShardResult::parse("p", &text) {
            proptest::prop_assert!(err.to_string().len() < 400, "{err}");
        }
    }

    #[test]
    fn a_mutated_line_whose_checksum_no_longer_matches_is_refused(
        index in 0u64..4,
        mutations in proptest::collection::vec((0usize..400, proptest::prelude::any::<u8>(), 0u8..3), 1..4),
    ) {
        let line = good(index, 4);
        let original = ShardResult::parse("p", &line).unwrap();
        let mut bytes = line.clone().into_bytes();
        for &(at, byte, how) in &mutations {
            bytes = mutate(&String::from_utf8_lossy(&bytes), at, byte, how);
        }
        let text = String::from_utf8_lossy(&bytes);
        match ShardResult::parse("p", &text) {
            // Only a change that keeps the content (spacing, an escape) is accepted.
            Ok(part) => proptest::prop_assert_eq!(part, original.clone(), "{}", text),
            Err(err) => proptest::prop_assert!(err.to_string().len() < 400, "{err}"),
        }
        // Whatever the syntax, content that differs from what the checksum covers is refused.
        if let Ok(f) = fields(&text) {
            let same = f.checksum.as_deref() == Some(&covered(&f).checksum()[..]);
            if !same {
                proptest::prop_assert!(ShardResult::parse("p", &text).is_err(), "{}", text);
            }
        }
    }
}

#[test]
fn a_half_board_shard_whose_eighths_no_shard_can_have_is_refused() {
    let split = "halves4-v1";
    let plan = split.parse::<Split>().unwrap().subproblems(12).unwrap();
    let line = |index: u64, total: u128, unique: u128| {
        let shard = Shard::new(index, 3).unwrap();
        result_line(12, Counts { total, unique }, 1.0, Some(shard), split, plan)
    };
    // Shard 0 holds the fixed-point subproblem: its eighths exceed its total by an even number.
    assert!(ShardResult::parse("p", &line(0, 4000, 4016)).is_ok());
    assert!(ShardResult::parse("p", &line(1, 4000, 4000)).is_ok());
    for (index, total, unique) in [(0, 4000, 4017), (1, 4000, 4016), (2, 4000, 3999)] {
        let err = refusal(&line(index, total, unique));
        assert!(
            matches!(err, ShardResultError::HalvesEighths { .. }),
            "{index}: {err}"
        );
    }
    // N = 1: the fixed-point subproblem of its one solution adds 7 eighths, odd, in shard 0
    // only (the CLI suite merges the half-board shards of every small N).
    let one = |index: u64, total: u128, unique: u128| {
        let shard = Shard::new(index, 2).unwrap();
        let split = "halves0-v1";
        let plan = split.parse::<Split>().unwrap().subproblems(1).unwrap();
        result_line(1, Counts { total, unique }, 1.0, Some(shard), split, plan)
    };
    assert!(ShardResult::parse("p", &one(0, 0, 7)).is_ok());
    for (index, total, unique) in [(1, 0, 7), (0, 1, 10)] {
        let err = refusal(&one(index, total, unique));
        assert!(
            matches!(err, ShardResultError::HalvesEighths { .. }),
            "{err}"
        );
    }
}

/// Issue 39: `unique_unit` says what `unique` holds: eighths in a shard of several of a split
/// that sums classes in eighths, classes otherwise (a whole count, shard 0/1, the frames).
#[test]
fn issue_39_the_line_says_whether_unique_holds_classes_or_eighths() {
    let plan = Split::Halves { columns: 4 }.subproblems(12).unwrap();
    let counts = Counts {
        total: 4000,
        unique: 4000,
    };
    let halves = |shard| result_line(12, counts, 1.0, shard, "halves4-v1", plan);
    assert!(halves(Shard::new(1, 3).ok()).contains(",\"unique_unit\":\"eighths\","));
    assert!(halves(Some(Shard::WHOLE)).contains(",\"unique_unit\":\"classes\","));
    assert!(halves(None).contains(",\"unique_unit\":\"classes\","));
    assert!(good(1, 3).contains(",\"unique_unit\":\"classes\","));
    let part = ShardResult::parse("p", &halves(Shard::new(1, 3).ok())).unwrap();
    assert_eq!(part.unique_unit(), UniqueUnit::Eighths);
    assert_eq!(
        UniqueUnit::of("frame1-rows2-v1", Shard::new(0, 2).ok()),
        UniqueUnit::Eighths
    );
}

/// Issue 39: a line written before `unique_unit` existed (the same checksum: the field is not
/// in the canonical line) still reads as the same result; a wrong unit is refused.
#[test]
fn issue_39_a_line_without_unique_unit_still_reads_and_a_wrong_one_is_refused() {
    for line in [good(0, 2), good(1, 2)] {
        let old = line.replace(",\"unique_unit\":\"classes\"", "");
        assert_ne!(old, line);
        assert_eq!(
            ShardResult::parse("p", &old).unwrap(),
            ShardResult::parse("p", &line).unwrap()
        );
        let wrong = line.replace("\"classes\"", "\"eighths\"");
        let err = refusal(&wrong);
        assert!(matches!(err, ShardResultError::UniqueUnit { .. }), "{err}");
        assert!(
            err.to_string().contains("its unique_unit is eighths"),
            "{err}"
        );
        let other = line.replace("\"classes\"", "\"halves\"");
        assert!(matches!(
            refusal(&other),
            ShardResultError::UniqueUnit { .. }
        ));
        let number = line.replace("\"classes\"", "8");
        assert!(refusal(&number)
            .to_string()
            .contains("`unique_unit` must be a string"));
    }
}

/// The bounds of the checks are not refused: a shard with no solution (as many classes as
/// solutions, none), and the most shards a count may have.
#[test]
fn a_shard_without_solutions_and_one_of_the_most_shards_are_read() {
    let line = good(0, 2);
    let none = resummed(
        &line,
        "\"total\":40,\"unique\":5",
        "\"total\":0,\"unique\":0",
    );
    let part = ShardResult::parse("p", &none).unwrap();
    assert_eq!(part.counts, Counts::default());
    let most = format!("\"shards\":{}", crate::count::MAX_SHARDS);
    let part = ShardResult::parse("p", &resummed(&line, "\"shards\":2", &most)).unwrap();
    assert_eq!(part.shard, Shard::new(0, 1 << 20).unwrap());
}

/// A parser remembers each split's plan under its board and its split both: a line of another
/// board by the same split, or of the same board by another split, is checked against its own
/// plan, not the one remembered first.
#[test]
fn a_parser_checks_each_board_and_split_against_its_own_plan() {
    let line = |n: usize, split: Split| {
        let plan = split.subproblems(n).unwrap();
        let counts = Counts::default();
        (
            result_line(
                n,
                counts,
                1.0,
                Shard::new(1, 2).ok(),
                &split.to_string(),
                plan,
            ),
            plan,
        )
    };
    let halves = Split::Halves { columns: 4 };
    let lines = [
        line(8, Split::Frames),
        line(9, Split::Frames),
        line(8, halves),
        line(9, halves),
    ];
    // The four plans differ, so a plan remembered under the wrong key would be refused.
    let plans: std::collections::BTreeSet<usize> = lines.iter().map(|l| l.1).collect();
    assert_eq!(plans.len(), 4, "{plans:?}");
    let mut parser = Parser::new();
    for (line, plan) in &lines {
        let part = parser.parse("p", line).unwrap();
        assert_eq!(part.subproblems, *plan);
    }
    assert_eq!(parser.known.len(), 4);
}

/// A split's name is written as a JSON string that the reader reads back as the same name,
/// whatever characters it holds (control characters escaped, as RFC 8259 requires).
#[test]
fn a_split_of_any_characters_is_written_as_json_that_reads_back() {
    for split in ["a\u{1}b\u{1f}", "q\"\\\n\r\t", "frame1-v1 ~\u{7f}é"] {
        let line = result_line(8, Counts::default(), 1.0, Some(Shard::WHOLE), split, 9);
        let f = fields(&line).unwrap_or_else(|e| panic!("{line}: {e}"));
        assert_eq!(f.split, split, "{line}");
    }
}
