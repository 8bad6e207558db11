//! Checkpoints written and read back, saved and loaded, their temporary files, and every kind
//! of damaged, forged, foreign or oversized file refused with its reason.

use std::fs::{self, File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};

use super::bound::max_bytes;
use super::file::create_temporary;
use super::{is_temporary_of, remove_stale_temporaries, Checkpoint};
use crate::count::checksum;
use crate::count::control::Tally;
use crate::count::frames::pieces::FramePieces;
use crate::count::shard::Shard;
use crate::count::split::Split;
use crate::count::types::Counts;
use crate::count::SPLIT;

fn sample() -> Checkpoint {
    let mut tally = Tally::new(130);
    tally.record(
        0,
        Counts {
            total: 16,
            unique: 2,
        },
    );
    tally.record(
        129,
        Counts {
            total: 8,
            unique: 1,
        },
    );
    Checkpoint {
        n: 12,
        split: SPLIT.to_string(),
        subproblems: 130,
        shard: Shard::WHOLE,
        tally,
        seconds: 1.5,
        cpu_seconds: Some(2.9),
    }
}

/// The fullest checkpoint of a split: every subproblem finished with 39-digit counts.
fn fullest(n: usize, split: &str) -> Checkpoint {
    let subproblems = split.parse::<Split>().unwrap().subproblems(n).unwrap();
    let mut tally = Tally::new(subproblems);
    let big = Counts {
        total: u128::MAX / subproblems as u128 / 2,
        unique: u128::MAX / subproblems as u128 / 2,
    };
    for i in 0..subproblems {
        tally.record(i, big);
    }
    Checkpoint {
        n,
        split: split.to_string(),
        subproblems,
        shard: Shard::WHOLE,
        tally,
        // The longest time a checkpoint may hold, in its longest form (17 digits).
        seconds: 999_999_999_999.999_9,
        cpu_seconds: Some(999_999_999_999.999_9),
    }
}

#[test]
fn the_fullest_checkpoints_fit_the_bound_the_reader_reads_within() {
    for (n, split) in [
        (12, "frame1-v1"),
        (16, "halves10-v1"),
        (20, "frame1-rows3-v1"),
    ] {
        let c = fullest(n, split);
        let text = c.to_text();
        assert!(
            text.len() as u64 <= max_bytes(n, split).unwrap(),
            "{n} {split}"
        );
        let dir = tempfile_dir("fullest");
        let path = dir.join("run.ckpt");
        c.save(&path).unwrap();
        assert_eq!(Checkpoint::load(&path, n).unwrap(), Some(c), "{n} {split}");
        fs::remove_dir_all(&dir).unwrap();
    }
    assert_eq!(max_bytes(12, "halves99-v1"), None);
}

fn tempfile_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("queens-ckpt-{tag}-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_long_file_is_refused_from_its_size_or_its_first_lines_without_reading_it_all() {
    let dir = tempfile_dir("long");
    let path = dir.join("run.ckpt");
    // A sparse gigabyte behind a valid header: refused by its size alone.
    let header = sample().to_text();
    fs::write(&path, &header).unwrap();
    File::options()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(1 << 30)
        .unwrap();
    let err = Checkpoint::load(&path, 12).unwrap_err().to_string();
    assert!(
        err.contains("1073741824 bytes long, more than the"),
        "{err}"
    );
    // A long file of another board: refused as such after its first lines.
    let err = Checkpoint::load(&path, 13).unwrap_err().to_string();
    assert!(err.contains("it is for N = 12, not N = 13"), "{err}");
    // A long file of no known version or split.
    let long = |first: &str, rest: &str| format!("{first}\n{rest}{}", "x".repeat(5000));
    fs::write(&path, long("queens-count-checkpoint 2\r", "n 12\n")).unwrap();
    let err = Checkpoint::load(&path, 12).unwrap_err().to_string();
    assert!(err.contains("carriage return"), "{err}");
    fs::write(
        &path,
        long("queens-count-checkpoint 2", "n 12\nsplit nope\n"),
    )
    .unwrap();
    let err = Checkpoint::load(&path, 12).unwrap_err().to_string();
    assert!(err.contains("split 'nope' is not one"), "{err}");
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn devices_are_not_read_as_checkpoints() {
    for device in ["/dev/zero", "/dev/null"] {
        if Path::new(device).exists() {
            let err = Checkpoint::load(Path::new(device), 12)
                .unwrap_err()
                .to_string();
            assert!(err.contains("not a regular file"), "{err}");
        }
    }
}

/// A checkpoint of shard 1/3 of a plan of pieces: frame 3 finished, frame 5 begun (its
/// shard's pieces are 2, 5, 8, ...: 2 counted, 5 not, 8..=14 and 20 counted).
fn sample_pieces() -> Checkpoint {
    let shard = Shard::new(1, 3).unwrap();
    let mut tally = Tally::new(130);
    let eight = Counts {
        total: 8,
        unique: 8,
    };
    tally.record(3, eight);
    let mut fp = FramePieces::new(shard, 5);
    for p in [2, 8, 11, 14, 20] {
        fp.record(p, 3, eight);
    }
    tally.pieces.insert(5, fp);
    Checkpoint {
        n: 12,
        split: "frame1-rows2-v1".to_string(),
        subproblems: 130,
        shard,
        tally,
        seconds: 1.5,
        cpu_seconds: Some(2.9),
    }
}

#[test]
fn a_checkpoint_of_pieces_round_trips_and_its_forgeries_are_refused() {
    let c = sample_pieces();
    let text = c.to_text();
    assert!(text.contains("\npieces 5@5:40/40+8-14+20-20\n"), "{text}");
    assert_eq!(Checkpoint::from_text(Path::new("x"), &text).unwrap(), c);
    let forged = |from: &str, to: &str| {
        assert!(text.contains(from), "{from}");
        refused(&resealed(&text.replacen(from, to, 1)))
    };
    assert!(forged("\npieces 5@", "\npieces 3@").contains("lists as finished"));
    assert!(forged("\npieces 5@5:", "\npieces 5@6:").contains("not in shard 1/3"));
    assert!(forged("+8-14+20-20", "+8-14+17-20").contains("range 17-20"));
    assert!(forged("+8-14", "+5-14").contains("range 5-14"));
    assert!(forged("+8-14", "+8-13").contains("range 8-13"));
    assert!(forged("+8-14", "+14-8").contains("range 14-8"));
    // Piece numbers near 2^64 are refused, not overflowed.
    assert!(forged("+20-20", "+20-18446744073709551615").contains("range 20-"));
    assert!(forged("5@5:", "5@18446744073709551614:").contains("is not index@next"));
    assert!(forged("5@5:40/40", "5@5:40").contains("is not index@next"));
    assert!(forged("5@5:40/40", "130@5:40/40").contains("past the 130"));
    assert!(forged(" 5@5:40/40+8-14+20-20", " 5@5:40/40 5@5:0/0").contains("increasing"));
    assert!(forged("\npieces 5@5:40/40+8-14+20-20", "").contains("'pieces' line"));
    // Whole frames have no such line.
    let whole = sample().to_text();
    assert!(!whole.contains("pieces"));
    let extra = whole.replace("\nchecksum", "\npieces\nchecksum");
    assert!(refused(&resealed(&extra)).contains("unexpected line"));
}

/// The text with its checksum line recomputed, as a careful forger would.
fn resealed(text: &str) -> String {
    let body_end = text.trim_end_matches('\n').rfind('\n').unwrap() + 1;
    let body = &text[..body_end];
    format!("{body}checksum {}\n", checksum::checksum(body.as_bytes()))
}

fn refused(text: &str) -> String {
    match Checkpoint::from_text(Path::new("x.ckpt"), text) {
        Ok(c) => panic!("accepted {c:?} from\n{text}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_checkpoint_survives_a_save_and_a_load() {
    let dir = std::env::temp_dir().join(format!("queens-ckpt-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    let path = dir.join("run.ckpt");
    let c = sample();
    c.save(&path).unwrap();
    c.save(&path).unwrap();
    let names: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["run.ckpt"], "no temporary file is left");
    assert_eq!(Checkpoint::load(&path, 12).unwrap(), Some(c));
    fs::remove_dir_all(&dir).unwrap();
    assert_eq!(Checkpoint::load(&path, 12).unwrap(), None);
}

/// A save keeps the permission bits of the file it replaces (a new file takes the umask's).
#[cfg(unix)]
#[test]
fn a_save_keeps_the_mode_of_the_file_it_replaces() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile_dir("mode");
    let path = dir.join("run.ckpt");
    let c = sample();
    c.save(&path).unwrap();
    for mode in [0o444, 0o664, 0o600] {
        fs::set_permissions(&path, fs::Permissions::from_mode(mode)).unwrap();
        c.save(&path).unwrap();
        let kept = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(kept, mode, "{mode:o}");
        assert_eq!(Checkpoint::load(&path, 12).unwrap(), Some(c.clone()));
    }
    fs::remove_dir_all(&dir).unwrap();
}

/// An empty file is named as such (no save leaves one), not as a wrong first line.
#[test]
fn an_empty_file_is_refused_as_empty() {
    let err = Checkpoint::from_text(Path::new("e.ckpt"), "").unwrap_err();
    assert!(err.to_string().contains("it is empty"), "{err}");
}

#[test]
fn the_text_is_its_own_checksummed_round_trip() {
    let c = sample();
    let text = c.to_text();
    assert!(text.contains("\nparts 0:16/2 129:8/1\n"), "{text}");
    assert!(text
        .lines()
        .last()
        .unwrap()
        .starts_with("checksum fnv1a64:"));
    assert_eq!(resealed(&text), text);
    assert_eq!(Checkpoint::from_text(Path::new("x"), &text).unwrap(), c);
}

/// A time the reader would refuse (not a number, negative, past 10^12 seconds) is written
/// within its range, so that every checkpoint written reads back.
#[test]
fn any_time_spent_is_written_as_one_the_reader_reads_back() {
    let times = crate::count::types::TIMES_TO_RECORD;
    for (spent, read) in times.into_iter().chain([(2.5, 2.5)]) {
        let c = Checkpoint {
            seconds: spent,
            cpu_seconds: Some(spent),
            ..sample()
        };
        let back = Checkpoint::from_text(Path::new("x"), &c.to_text()).unwrap();
        assert_eq!(
            (back.seconds, back.cpu_seconds),
            (read, Some(read)),
            "{spent}"
        );
        assert!(back.seconds.is_sign_positive(), "{spent}");
    }
}

/// The processor time is written after the wall time; a file without it (from a `queens`
/// older than the line) is read, with the time unknown, and written back without it.
#[test]
fn the_processor_time_is_kept_and_may_be_missing() {
    let text = sample().to_text();
    assert!(
        text.contains("\nseconds 1.5\ncpu-seconds 2.9\ndone "),
        "{text}"
    );
    let older = resealed(&text.replace("cpu-seconds 2.9\n", ""));
    let read = Checkpoint::from_text(Path::new("x"), &older).unwrap();
    assert_eq!(read.cpu_seconds, None);
    assert_eq!(read.seconds, 1.5);
    assert_eq!(read.to_text(), older);
}

#[test]
fn damaged_checkpoints_are_refused_with_the_reason() {
    let text = sample().to_text();
    let cases = [
        (text.replace("finished 2", "finished 3"), "checksum says"),
        (
            resealed(&text.replace("finished 2", "finished 3")),
            "'finished' says 3",
        ),
        (
            resealed(&text.replace("n 12", "n twelve")),
            "'n' is not a whole number",
        ),
        (resealed(&text.replace("n 12", "n 33")), "not from 1 to 32"),
        // Only what a save writes: no leading zero, lower-case hexadecimal.
        (
            resealed(&text.replace("n 12", "n 012")),
            "'n' has a leading zero",
        ),
        (
            resealed(&text.replace("total 24", "total 024")),
            "'total' has a leading zero",
        ),
        (
            resealed(&text.replace("done 0000000000000001", "done 000000000000000A")),
            "lower-case hexadecimal",
        ),
        (
            text.replace("queens-count-checkpoint 2", "hello"),
            "first line",
        ),
        (
            text.lines().take(4).collect::<Vec<_>>().join("\n"),
            "line break",
        ),
        (
            text.lines().take(4).map(|l| format!("{l}\n")).collect(),
            "checksum",
        ),
        (
            resealed(&text.replace("total 24", "total 25")),
            "'total' says 25 but the parts add up to 24",
        ),
        (
            resealed(&text.replace("unique 3", "unique 4")),
            "'unique' says 4",
        ),
        (
            resealed(&text.replace("129:8/1", "129:8/9")),
            "more classes",
        ),
        (
            resealed(&text.replace(" 129:8/1", "")),
            "does not give its counts",
        ),
        (
            resealed(&text.replace("129:8/1", "128:8/1")),
            "'done' says the next finished one is 129",
        ),
        (
            resealed(&text.replace("129:8/1", "129:8/1 129:8/1")),
            "lists only 2",
        ),
        (
            resealed(&text.replace("seconds 1.5", "seconds -1")),
            "'seconds'",
        ),
        (
            resealed(&text.replace("\nseconds 1.5", "\nseconds 1.5\nseconds 1.5")),
            "expected the 'done' line",
        ),
        (
            resealed(&text.replace("cpu-seconds 2.9", "cpu-seconds -1")),
            "'cpu-seconds' is not a number of seconds",
        ),
        (
            resealed(&text.replace("cpu-seconds 2.9", "cpu-seconds inf")),
            "'cpu-seconds' is not a number of seconds",
        ),
        (
            resealed(&text.replace("seconds 1.5", "seconds 1.79e308")),
            "'seconds' is not a number of seconds from 0 to 10^12",
        ),
        (
            resealed(&text.replace("cpu-seconds 2.9\n", "cpu-seconds 2.9\ncpu-seconds 2.9\n")),
            "expected the 'done' line",
        ),
        (
            resealed(&text.replace("parts ", "parts 5:1/1 ")),
            "'parts' gives subproblem 5",
        ),
        (
            resealed(&text.replace("shard 0/1", "shard 1/2")),
            "not in shard 1/2",
        ),
        (
            resealed(&text.replace("subproblems 130", "subproblems 99999999999")),
            "more than any plan",
        ),
        (
            resealed(&text.replace("total 24", "total +24")),
            "'total' is not a whole number",
        ),
        (
            resealed(&text.replace("total 24", "total 340282366920938463463374607431768211456")),
            "out of range",
        ),
        (
            resealed(&text.replace("0:16/2", "0:340282366920938463463374607431768211455/2")),
            "past the largest total",
        ),
        (text.replace('\n', "\r\n"), "carriage return"),
        (
            text.replace("queens-count-checkpoint 2", "queens-count-checkpoint 3"),
            "unknown version '3'",
        ),
    ];
    for (bad, why) in cases {
        let err = refused(&bad);
        assert!(err.contains(why), "wanted '{why}', got: {err}");
        assert!(err.contains("x.ckpt"), "{err}");
    }
}

#[test]
fn a_bit_past_the_plan_is_refused() {
    let mut c = sample();
    c.tally.done[2] |= 1 << 5; // subproblem 133 of 130
    c.tally.finished += 1;
    let err = refused(&c.to_text());
    assert!(err.contains("subproblem 133, past the 130"), "{err}");
}

#[test]
fn every_single_character_changed_is_refused() {
    for sample in [sample(), sample_pieces()] {
        every_change_refused(&sample.to_text());
    }
}

fn every_change_refused(text: &str) {
    let bytes = text.as_bytes();
    let mut accepted = 0;
    for i in 0..bytes.len() {
        for b in [b'0', b'1', b'9', b'a', b'f', b' ', b'\n', b'x'] {
            if bytes[i] == b {
                continue;
            }
            let mut copy = bytes.to_vec();
            copy[i] = b;
            let Ok(copy) = String::from_utf8(copy) else {
                continue;
            };
            if Checkpoint::from_text(Path::new("x"), &copy).is_ok() {
                accepted += 1;
            }
        }
    }
    assert_eq!(accepted, 0);
}

#[test]
fn a_version_1_checkpoint_is_refused_as_such() {
    let v1 = "queens-count-checkpoint 1\nn 12\nsplit frame1-v1\nsubproblems 130\n\
              shard 0/1\nfinished 0\ntotal 0\nunique 0\nseconds 0\ndone \
              000000000000000000000000000000000000000000000000\n";
    let err = refused(v1);
    assert!(err.contains("version 1 checkpoint"), "{err}");
}

#[cfg(unix)]
#[test]
fn only_the_names_of_its_temporary_files_are_taken_for_them() {
    let name = std::ffi::OsStr::new("run.ck");
    let is = |f: &str| is_temporary_of(name, std::ffi::OsStr::new(f));
    assert!(is(".run.ck.1234.0123456789abcdef.tmp"));
    assert!(!is("run.ck"));
    assert!(!is("run.ck.lock"));
    assert!(!is(".run.ck.1234.0123456789abcdef.tmp~"));
    assert!(!is(".run.ck.12a4.0123456789abcdef.tmp"));
    assert!(!is(".run.ck..0123456789abcdef.tmp"));
    assert!(!is(".run.ck.1234.0123456789abcde.tmp"));
    assert!(!is(".run.ck.1234.0123456789abcdeg.tmp"));
    assert!(!is(".other.ck.1234.0123456789abcdef.tmp"));
    assert!(!is(".run.ckx.1234.0123456789abcdef.tmp"));
    // A name that is not UTF-8 has its temporary files too (they were left behind).
    use std::os::unix::ffi::OsStrExt;
    let bytes = std::ffi::OsStr::from_bytes;
    let odd = bytes(b"ck\xff");
    assert!(is_temporary_of(
        odd,
        bytes(b".ck\xff.1234.0123456789abcdef.tmp")
    ));
    assert!(!is_temporary_of(
        odd,
        bytes(b".ck\xfe.1234.0123456789abcdef.tmp")
    ));
    assert!(!is_temporary_of(
        odd,
        bytes(b".ck\xff.12\xff4.0123456789abcdef.tmp")
    ));
}

#[test]
fn stale_temporary_files_of_the_checkpoint_are_removed_and_nothing_else() {
    let dir = tempfile_dir("stale");
    let path = dir.join("run.ck");
    sample().save(&path).unwrap();
    let stale = [
        ".run.ck.1.0123456789abcdef.tmp",
        ".run.ck.4194303.fedcba9876543210.tmp",
    ];
    let kept = [".other.ck.1.0123456789abcdef.tmp", "run.ck.lock", "notes"];
    for f in stale.iter().chain(&kept) {
        fs::write(dir.join(f), "x").unwrap();
    }
    // A folder of a temporary file's name is not a save's.
    let folder = ".run.ck.2.0123456789abcdef.tmp";
    fs::create_dir(dir.join(folder)).unwrap();
    assert_eq!(remove_stale_temporaries(&path), 2);
    for f in stale {
        assert!(!dir.join(f).exists(), "{f} is left");
    }
    for f in kept.iter().chain([&folder]) {
        assert!(dir.join(f).exists(), "{f} is removed");
    }
    assert!(Checkpoint::load(&path, sample().n).unwrap().is_some());
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_temporary_name_taken_by_a_symlink_is_never_written_through() {
    let dir = std::env::temp_dir().join(format!("queens-ckpt-link-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    let victim = dir.join("victim");
    fs::write(&victim, "precious").unwrap();
    let link = dir.join("taken.tmp");
    std::os::unix::fs::symlink(&victim, &link).unwrap();
    // The way every temporary file is opened refuses an existing name, a symlink included.
    let opened = OpenOptions::new().write(true).create_new(true).open(&link);
    assert_eq!(opened.unwrap_err().kind(), io::ErrorKind::AlreadyExists);
    // And a save goes to a fresh name beside the target, then over the target only.
    let target = dir.join("run.ckpt");
    std::os::unix::fs::symlink(&victim, dir.join("run.ckpt.tmp")).unwrap();
    sample().save(&target).unwrap();
    assert_eq!(fs::read_to_string(&victim).unwrap(), "precious");
    let (_, temp) = create_temporary(&target).unwrap();
    assert!(temp.starts_with(&dir) && temp != target);
    let name = temp.file_name().unwrap().to_str().unwrap();
    assert!(
        name.starts_with(".run.ckpt.") && name.ends_with(".tmp"),
        "{name}"
    );
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_checkpoint_of_another_run_is_refused() {
    let c = sample();
    let p = Path::new("x");
    assert!(c.check_matches(p, 12, SPLIT, 130, Shard::WHOLE).is_ok());
    let err = c
        .check_matches(p, 13, SPLIT, 130, Shard::WHOLE)
        .unwrap_err();
    assert!(err.to_string().contains("N = 12, not N = 13"));
    let err = c.check_matches(p, 12, SPLIT, 130, Shard::new(1, 2).unwrap());
    assert!(err.unwrap_err().to_string().contains("shard 0/1"));
    // Another split alone (N = 12 cut into pieces has the same 130 subproblems), or another
    // number of subproblems alone, is another run.
    let err = c
        .check_matches(p, 12, "frame1-rows2-v1", 130, Shard::WHOLE)
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("split frame1-v1 of 130 subproblems, not frame1-rows2-v1 of 130"),
        "{err}"
    );
    let err = c
        .check_matches(p, 12, SPLIT, 131, Shard::WHOLE)
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("split frame1-v1 of 130 subproblems, not frame1-v1 of 131"),
        "{err}"
    );
}
