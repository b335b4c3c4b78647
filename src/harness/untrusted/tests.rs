use std::fs;
use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::{Path, PathBuf};

use super::*;
use crate::harness::files::Cap;

const PY: &dyn Fn(&Path) -> bool = &|p: &Path| p.extension().is_some_and(|e| e == "py");

/// A submission `sub/` beside a secret `secret.txt` and a classmate's `bob/a1.py`.
fn lab() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("sub");
    fs::create_dir_all(&sub).unwrap();
    fs::write(dir.path().join("secret.txt"), "the answers").unwrap();
    fs::create_dir_all(dir.path().join("bob")).unwrap();
    fs::write(dir.path().join("bob/a1.py"), "bob's code").unwrap();
    fs::write(sub.join("a1.py"), "mine").unwrap();
    (dir, sub)
}

fn copy(sub: &Path, depth: usize) -> (Result<Vec<PathBuf>, Refused>, tempfile::TempDir) {
    let to = tempfile::tempdir().unwrap();
    let result = copy_files(&Folder::open(sub).unwrap(), &to.path().join("copy"), depth, PY, &SOURCES);
    (result, to)
}

fn names(list: &[PathBuf]) -> Vec<String> {
    list.iter().map(|p| p.display().to_string()).collect()
}

#[test]
fn regular_files_and_links_to_siblings_are_copied_as_plain_files() {
    let (_dir, sub) = lab();
    fs::create_dir_all(sub.join("lib")).unwrap();
    fs::write(sub.join("lib/helpers.py"), "help").unwrap();
    symlink("lib/helpers.py", sub.join("helpers.py")).unwrap();
    symlink("helpers.py", sub.join("again.py")).unwrap();
    // A link to a folder inside, then back up: still inside.
    symlink("lib", sub.join("l")).unwrap();
    symlink("l/../a1.py", sub.join("up.py")).unwrap();
    fs::write(sub.join("notes.txt"), "not python").unwrap();
    let (copied, to) = copy(&sub, 1);
    assert_eq!(names(&copied.unwrap()), ["a1.py", "again.py", "helpers.py", "up.py"]);
    let made = to.path().join("copy");
    for (name, text) in [("a1.py", "mine"), ("again.py", "help"), ("helpers.py", "help"), ("up.py", "mine")] {
        let meta = fs::symlink_metadata(made.join(name)).unwrap();
        assert!(meta.is_file(), "{name} is a plain file in the copy");
        assert_eq!(meta.permissions().mode() & 0o777, 0o644);
        assert_eq!(fs::read_to_string(made.join(name)).unwrap(), text);
    }
    assert!(!made.join("notes.txt").exists() && !made.join("lib").exists());
    // Deeper, the tree is copied as it is.
    let (copied, _to) = copy(&sub, 2);
    assert_eq!(names(&copied.unwrap()), ["a1.py", "again.py", "helpers.py", "lib/helpers.py", "up.py"]);
}

#[test]
fn links_out_of_the_folder_are_refused_by_name_and_target_before_anything_is_read() {
    let (dir, sub) = lab();
    let cases: [(&str, PathBuf); 4] = [
        ("g_1.py", PathBuf::from("../secret.txt")),
        ("g_2.py", dir.path().join("secret.txt")),
        ("bob.py", PathBuf::from("../bob/a1.py")),
        // Up through a link to the folder itself: still above the top.
        ("dot.py", PathBuf::from("here/../../secret.txt")),
    ];
    symlink(".", sub.join("here")).unwrap();
    for (name, target) in cases {
        symlink(&target, sub.join(name)).unwrap();
        let (result, to) = copy(&sub, 1);
        let why = result.unwrap_err();
        let message = why.to_string();
        match &why {
            Refused::Outside { file, .. } => assert_eq!(file, Path::new(name)),
            other => panic!("{name}: {other:?}"),
        }
        assert!(message.starts_with(&format!("{name} is a symbolic link to ")), "{message}");
        assert!(message.contains(", outside its own folder: "), "{message}");
        assert!(!message.contains("the answers") && !message.contains("bob's code"));
        let leaked =
            walkdir::WalkDir::new(to.path()).into_iter().flatten().filter(|e| e.file_type().is_file()).any(
                |e| fs::read_to_string(e.path()).is_ok_and(|t| t.contains("answers") || t.contains("bob")),
            );
        assert!(!leaked, "{name}: a copy holds what the link names");
        fs::remove_file(sub.join(name)).unwrap();
    }
    // The link named is the one that leads out, seen from the file asked for.
    symlink("../secret.txt", sub.join("hop.py")).unwrap();
    symlink("hop.py", sub.join("first.py")).unwrap();
    let why = copy(&sub, 1).0.unwrap_err().to_string();
    assert!(why.starts_with("first.py: hop.py is a symbolic link to ../secret.txt"), "{why}");
}

#[test]
fn a_huge_file_is_refused_by_its_size_without_being_copied() {
    let (_dir, sub) = lab();
    fs::File::create(sub.join("big.py")).unwrap().set_len(1 << 30).unwrap();
    let (result, to) = copy(&sub, 1);
    assert_eq!(
        result.unwrap_err().to_string(),
        "big.py is 1073741824 bytes, more than the 16777216 allowed for one file of a submission"
    );
    assert!(!to.path().join("copy/big.py").exists());
}

#[test]
fn fifos_are_refused_and_dangling_links_and_loops_are_told_apart() {
    let (_dir, sub) = lab();
    let fifo = std::ffi::CString::new(sub.join("pipe.py").to_str().unwrap()).unwrap();
    // SAFETY: mkfifo with a NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0);
    let start = std::time::Instant::now();
    assert_eq!(copy(&sub, 1).0.unwrap_err().to_string(), "pipe.py is a FIFO, not a regular file");
    assert!(start.elapsed() < std::time::Duration::from_secs(2));
    fs::remove_file(sub.join("pipe.py")).unwrap();
    // An editor's lock file names nothing: left out.
    symlink("user@host.1234:1690000000", sub.join(".#a1.py")).unwrap();
    assert_eq!(names(&copy(&sub, 1).0.unwrap()), ["a1.py"]);
    symlink("loop2.py", sub.join("loop1.py")).unwrap();
    symlink("loop1.py", sub.join("loop2.py")).unwrap();
    let why = copy(&sub, 1).0.unwrap_err().to_string();
    assert!(why.contains("too many symbolic links"), "{why}");
}

#[test]
fn a_file_a_bot_left_is_read_only_as_itself() {
    const CAP: Cap = Cap { bytes: 16, what: "a test file" };
    let (dir, sub) = lab();
    fs::write(sub.join("own.txt"), "calibrated").unwrap();
    assert_eq!(read_left(&sub.join("own.txt"), CAP).unwrap(), b"calibrated");
    symlink(dir.path().join("secret.txt"), sub.join("link.txt")).unwrap();
    let why = read_left(&sub.join("link.txt"), CAP).unwrap_err().to_string();
    assert_eq!(
        why,
        format!("link.txt is a symbolic link (to {}), not a file", dir.path().join("secret.txt").display())
    );
    // Even a link to a sibling: a bot's own file is that file.
    symlink("own.txt", sub.join("sibling.txt")).unwrap();
    assert!(matches!(read_left(&sub.join("sibling.txt"), CAP), Err(Refused::Link { .. })));
    fs::hard_link(dir.path().join("secret.txt"), sub.join("hard.txt")).unwrap();
    let why = read_left(&sub.join("hard.txt"), CAP).unwrap_err().to_string();
    assert!(why.contains("hard link"), "{why}");
    fs::write(sub.join("long.txt"), "x".repeat(17)).unwrap();
    assert!(matches!(read_left(&sub.join("long.txt"), CAP), Err(Refused::TooLarge { bytes: 17, .. })));
    let fifo = std::ffi::CString::new(sub.join("fifo.txt").to_str().unwrap()).unwrap();
    // SAFETY: mkfifo with a NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0);
    assert!(matches!(read_left(&sub.join("fifo.txt"), CAP), Err(Refused::NotAFile { what: "a FIFO", .. })));
    assert!(matches!(read_left(&sub.join("none.txt"), CAP), Err(Refused::Missing { .. })));
}

#[test]
fn reading_a_file_follows_links_only_inside() {
    const CAP: Cap = Cap { bytes: 64, what: "a test file" };
    let (_dir, sub) = lab();
    symlink("a1.py", sub.join("alias.py")).unwrap();
    symlink("../secret.txt", sub.join("out.txt")).unwrap();
    let folder = Folder::open(&sub).unwrap();
    assert_eq!(folder.read(Path::new("alias.py"), CAP).unwrap(), b"mine");
    assert!(matches!(folder.read(Path::new("out.txt"), CAP), Err(Refused::Outside { .. })));
    assert_eq!(folder.head(Path::new("a1.py"), 2).unwrap(), b"mi");
    // Listing twice lists the same.
    assert_eq!(folder.list(1, 100).unwrap(), folder.list(1, 100).unwrap());
    assert!(matches!(folder.list(1, 1), Err(Refused::TooMuch { .. })));
}
