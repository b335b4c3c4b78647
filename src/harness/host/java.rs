//! Java submissions: arbiter's host and the game's adapter compiled once per process, the
//! submission copied by the rule for a submission's files and compiled with the course's API
//! (javac in the sandbox, no student code run), and the command that hosts it.

use std::collections::HashMap;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use serde_json::{Value, json};

use super::build_folder;
use super::prebuilt;
use super::spec::{JAVA_HOST, JavaEntry, JavaSpec};
use super::tools;
use crate::harness::files::Cap;
use crate::harness::runner::{self, BotCommand, Limits, Outcome};
use crate::harness::untrusted::{self, Folder};

/// CPU time `javac` may take on one submission.
const COMPILE_CPU: Duration = Duration::from_secs(60);

/// Lines of compiler errors shown when a submission does not compile.
const SHOWN_ERRORS: usize = 15;

/// How deep a submission's folder is searched for `.java` files.
const SOURCE_DEPTH: usize = 8;

/// The jar the build step leaves, and its cap.
const CLASSES_JAR: &str = "classes.jar";
const CLASSES: Cap = Cap { bytes: 64 << 20, what: "a submission's compiled classes" };

/// The largest strategy `.jar` hosted as it is (the course's are about 20 KiB).
const JAR: Cap = Cap { bytes: 64 << 20, what: "a strategy's jar" };

/// Room the build step gets for the classes and the jar.
const COMPILE_DISK: u64 = 256 << 20;

/// arbiter's build step, compiled with the host: runs javac in the sandbox and packs the
/// classes into one jar.
const COMPILER: &[(&str, &str)] =
    &[("arbiter/build/Compile.java", include_str!("../../../hosts/java/build/arbiter/build/Compile.java"))];

/// A compiled submission and the command that hosts it.
pub struct Prepared {
    pub command: BotCommand,
    pub build: tempfile::TempDir,
    /// The `load` request's arguments, for an entry the adapter must find
    /// ([`JavaEntry::Implements`]): `{"candidates": [...]}` or `{"class": ...}`.
    pub load: Option<Value>,
}

/// Whether a folder holds any `.java` file.
pub fn has_sources(folder: &Path) -> bool {
    walkdir::WalkDir::new(folder)
        .max_depth(8)
        .into_iter()
        .flatten()
        .any(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "java"))
}

/// A submission's source file: where it is and the class it holds (`pkg.Name`, from its
/// `package` line and file name).
struct Source {
    path: PathBuf,
    /// `pkg/Name.java`: the path a javac source root expects.
    package_path: String,
    class: String,
    /// Whether it names the entry interface.
    names_entry: bool,
    /// Whether it belongs to one of the spec's foreign packages.
    foreign: bool,
}

impl Source {
    /// The source root the file sits in by its package, if it is laid out that way.
    fn root(&self) -> Option<PathBuf> {
        self.path.to_str().and_then(|p| p.strip_suffix(&self.package_path)).map(PathBuf::from)
    }
}

/// The entry class of a [`JavaEntry::Implements`] game, when the grader or the student names
/// it: by its `.java` file, or by its full name (`class = "..."` in `arbiter.toml`).
#[derive(Clone, Copy, Debug)]
pub enum Chosen<'a> {
    /// The class's source file.
    File(&'a Path),
    /// The class's full name (`planetwars.strategies.MyStrategy`).
    Class(&'a str),
}

/// Compiles `folder`'s sources with the game's API and returns the command that hosts them.
/// `chosen` names the entry class of a [`JavaEntry::Implements`] game.
///
/// The sources are first copied by the rule for a submission's files ([`untrusted`]: a link
/// is followed only inside the submission's folder, and one leading out refuses it), and javac
/// reads only that copy, in the sandbox, as the bot's own user, under CPU, memory, file-size
/// and output limits: a linked `Leak.java` can put nothing of a file outside the submission
/// into the compiler's messages, which are all a refusal quotes.
pub fn prepare(
    folder: &Path,
    spec: &JavaSpec,
    limits: &Limits,
    chosen: Option<Chosen>,
) -> Result<Prepared, String> {
    let javac = tools::require("javac", "compile a Java submission")?;
    let java = tools::require("java", "run a Java submission")?;
    let host = host_classes(&javac, &java, spec)?;
    let (build, build_path) = build_folder::make("arbiter-java-")?;
    let src = build_path.join("src");
    let submission = Folder::open(folder).map_err(|e| e.to_string())?;
    let is_java = |p: &Path| p.extension().is_some_and(|x| x == "java");
    untrusted::copy_files(&submission, &src, SOURCE_DEPTH, &is_java, &untrusted::SOURCES)
        .map_err(|e| e.to_string())?;
    let named = match chosen {
        Some(Chosen::Class(name)) => Some(name),
        _ => None,
    };
    let chosen = match chosen {
        Some(Chosen::File(c)) => Some(within(folder, c).map(|relative| src.join(relative))?),
        _ => None,
    };
    let (sources, entry_class) = submission_sources(&src, spec)?;
    let mut files: Vec<OsString> = Vec::new();
    for (path, text) in spec.api {
        let file = build_path.join("api").join(path);
        write(&file, text)?;
        files.push(file.into_os_string());
    }
    // Only the entry classes are named; javac finds what they use on the source path (arbiter's
    // API first, so that it wins over a student's copy) and compiles that too. A student's JUnit
    // tests or scratch files that the player never uses are not compiled, as the course's
    // referee never loads them.
    let (entries, load): (Vec<&Source>, Option<Value>) = match spec.entry {
        // The course's class, or the one found in another package (loaded by its full name).
        JavaEntry::Class(class) => (
            sources.iter().filter(|s| s.class == entry_class).collect(),
            (entry_class != class).then(|| json!({"class": entry_class})),
        ),
        JavaEntry::Implements(interface) => {
            let picked: Vec<&Source> = match (&chosen, named) {
                (_, Some(name)) => {
                    let source = sources.iter().find(|s| s.class == name).ok_or_else(|| {
                        let known: Vec<&str> = sources
                            .iter()
                            .filter(|s| s.names_entry && !s.foreign)
                            .map(|s| s.class.as_str())
                            .collect();
                        format!(
                            "the submission has no class {name} (its classes that name {}: {})",
                            simple_name(interface),
                            if known.is_empty() { "none".to_string() } else { known.join(", ") }
                        )
                    })?;
                    vec![source]
                }
                (Some(file), None) => {
                    let source = sources.iter().find(|s| &s.path == file).ok_or_else(|| {
                        format!(
                            "{} is not a Java source of the submission {}",
                            file.strip_prefix(&src).unwrap_or(file).display(),
                            folder.display()
                        )
                    })?;
                    vec![source]
                }
                (None, None) => sources.iter().filter(|s| s.names_entry && !s.foreign).collect(),
            };
            if picked.is_empty() {
                return Err(format!(
                    "the submission has no class that implements {interface} (no source names `{}`)",
                    simple_name(interface)
                ));
            }
            let load = if chosen.is_some() || named.is_some() {
                json!({"class": picked[0].class})
            } else {
                json!({"candidates": picked.iter().map(|s| s.class.as_str()).collect::<Vec<_>>()})
            };
            (picked, Some(load))
        }
    };
    let roots: Option<Vec<PathBuf>> = entries.iter().map(|s| s.root()).collect();
    let options = match roots {
        Some(mut roots) if !entries.is_empty() => {
            roots.sort();
            roots.dedup();
            files.extend(entries.iter().map(|s| s.path.clone().into_os_string()));
            let source_path = std::env::join_paths(std::iter::once(build_path.join("api")).chain(roots))
                .map_err(|e| format!("a folder name javac cannot take: {e}"))?;
            format!("-implicit:class -sourcepath {}", runner::quote(&source_path))
        }
        // Sources not laid out by package (`MachinePlayer.java` at the top): every file given,
        // less those of the course's code that arbiter does not ship.
        _ => {
            files.extend(sources.iter().filter(|s| !s.foreign).map(|s| s.path.clone().into_os_string()));
            "-implicit:none".to_string()
        }
    };
    build_folder::open_to_bots(&build_path)?;
    let heap_mb = limits.memory_bytes.map_or(1024, |b| (b >> 21).clamp(64, 2048));
    let classes = compile(&java, &host.classes, &build_path, heap_mb, &options, &files, limits)?;
    let jar = build_path.join(CLASSES_JAR);
    std::fs::write(&jar, classes).map_err(|e| format!("cannot write {}: {e}", jar.display()))?;
    build_folder::open_to_bots(&build_path)?;
    let line = host_line(&java, spec, &host, heap_mb, jar.as_os_str());
    let command = BotCommand::parse_in(&line, &build_path).map_err(|e| e.to_string())?;
    Ok(Prepared { command, build, load })
}

/// Runs arbiter's build step (`arbiter.build.Compile`: javac, then the classes packed into
/// one jar) in the sandbox on the copied sources `files` with javac's `options`, in a case
/// folder of its own; returns the jar's bytes, or the compiler's own words (its stderr, the
/// only thing quoted) if the sources do not compile.
fn compile(
    java: &Path,
    host: &Path,
    build_path: &Path,
    heap_mb: u64,
    options: &str,
    files: &[OsString],
    limits: &Limits,
) -> Result<Vec<u8>, String> {
    let case = tempfile::Builder::new()
        .prefix("arbiter-javac-")
        .tempdir()
        .map_err(|e| format!("arbiter could not make a temporary folder: {e}"))?;
    let command = BotCommand::parse_in(
        &format!(
            "{} -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xmx{heap_mb}m -cp {} arbiter.build.Compile {CLASSES_JAR} classes \
             -encoding UTF-8 -nowarn -proc:none {options}",
            runner::quote(java.as_os_str()),
            runner::quote(host.as_os_str()),
        ),
        case.path(),
    )
    .map_err(|e| e.to_string())?;
    // Confined as the bot is (same sandbox, same memory limit), with a compiler's CPU time and
    // room for a jar; it may read the copy and arbiter's API beside it.
    let mut compile_limits = Limits {
        timeout: COMPILE_CPU,
        max_file_bytes: Some(CLASSES.bytes),
        disk_bytes: limits.disk_bytes.max(COMPILE_DISK),
        ..limits.clone()
    };
    compile_limits.sandbox.allow_read.push(build_path.to_path_buf());
    let report = runner::run(&command, files, case.path(), &compile_limits);
    if report.outcome != Outcome::Exited(0) {
        let stderr = String::from_utf8_lossy(&report.stderr);
        let shown: Vec<String> = stderr
            .lines()
            .take(SHOWN_ERRORS)
            .map(|l| {
                l.replace(&format!("{}/", build_path.join("src").display()), "")
                    .replace(&format!("{}/", build_path.display()), "")
            })
            .collect();
        return Err(format!(
            "the submission does not compile (javac {}):\n{}",
            report.describe(),
            shown.join("\n")
        ));
    }
    // Left by a process in the sandbox: read as that file alone, never through a link.
    untrusted::read_left(&case.path().join(CLASSES_JAR), CLASSES)
        .map_err(|e| format!("arbiter's build step left no usable classes: {e}"))
}

/// `chosen` as a path relative to `folder` (the file a grader named, in its folder).
fn within(folder: &Path, chosen: &Path) -> Result<PathBuf, String> {
    let absolute = |p: &Path| std::path::absolute(p).map_err(|e| format!("{}: {e}", p.display()));
    let (folder_abs, chosen_abs) = (absolute(folder)?, absolute(chosen)?);
    chosen_abs.strip_prefix(&folder_abs).map(Path::to_path_buf).map_err(|_| {
        format!("{} is not a Java source of the submission {}", chosen.display(), folder.display())
    })
}

/// A strategy given as a `.jar` (the course's `AI1_obf.jar`): nothing is compiled from it. The
/// course's API as arbiter writes it (compiled once per process) and a copy of the jar go into
/// a folder of their own; the host searches the API first, so the jar's own copy of the API is
/// never loaded, and the game's adapter picks the class inside the jar (`load {"jar": PATH}`),
/// or takes the one `class` names (`load {"class": NAME}`).
pub fn prepare_jar(
    jar: &Path,
    class: Option<&str>,
    spec: &JavaSpec,
    limits: &Limits,
) -> Result<Prepared, String> {
    let javac = tools::require("javac", "compile arbiter's copy of the course's API")?;
    let java = tools::require("java", "run a Java strategy")?;
    let host = host_classes(&javac, &java, spec)?;
    let api = api_classes(&javac, spec)?;
    let (build, build_path) = build_folder::make("arbiter-java-")?;
    let classes = build_path.join("classes");
    for entry in walkdir::WalkDir::new(&api).into_iter().flatten() {
        let Ok(inside) = entry.path().strip_prefix(&api) else { continue };
        let target = classes.join(inside);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).map_err(|e| format!("cannot make {}: {e}", target.display()))?;
        } else {
            std::fs::copy(entry.path(), &target)
                .map_err(|e| format!("cannot copy {}: {e}", target.display()))?;
        }
    }
    // The grader's jar (an opponent, a course strategy): read as that file, never through a
    // link, and copied, so that the sandboxed host reads only its own folder.
    let bytes = read_jar(jar)?;
    let copy = build_path.join("strategy.jar");
    std::fs::write(&copy, bytes).map_err(|e| format!("cannot write {}: {e}", copy.display()))?;
    build_folder::open_to_bots(&build_path)?;
    let class_path = std::env::join_paths([&classes, &copy])
        .map_err(|e| format!("a folder name the class path cannot take: {e}"))?;
    let heap_mb = limits.memory_bytes.map_or(1024, |b| (b >> 21).clamp(64, 2048));
    let line = host_line(&java, spec, &host, heap_mb, &class_path);
    let command = BotCommand::parse_in(&line, &build_path).map_err(|e| e.to_string())?;
    let load = match class {
        Some(name) => json!({"class": name}),
        None => json!({"jar": copy.display().to_string()}),
    };
    Ok(Prepared { command, build, load: Some(load) })
}

/// The bytes of a strategy's `.jar`, opened by the rule for a submission's files (no link
/// followed, a regular file, capped).
fn read_jar(jar: &Path) -> Result<Vec<u8>, String> {
    let folder = match jar.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let name = jar.file_name().ok_or_else(|| format!("{} names no file", jar.display()))?;
    Folder::open(folder)
        .and_then(|f| f.read(Path::new(name), JAR))
        .map_err(|e| format!("cannot read the jar {}: {e}", jar.display()))
}

/// The course's API and the game's bridge as arbiter writes them, compiled once per process
/// (outside the sandbox: arbiter's own code), for strategies that come compiled (a `.jar`).
fn api_classes(javac: &Path, spec: &JavaSpec) -> Result<PathBuf, String> {
    static CACHE: OnceLock<Mutex<HashMap<&'static str, Arc<tempfile::TempDir>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(dir) = cache.get(spec.adapter_class) {
        return Ok(dir.path().join("classes"));
    }
    let dir = tempfile::Builder::new()
        .prefix("arbiter-java-api-")
        .tempdir()
        .map_err(|e| format!("arbiter could not make a temporary folder: {e}"))?;
    let mut files = Vec::new();
    for (path, text) in spec.api {
        let file = dir.path().join("src").join(path);
        write(&file, text)?;
        files.push(file);
    }
    compile_own(
        javac,
        &["-implicit:none"],
        &dir.path().join("classes"),
        &files,
        "arbiter's copy of the course's API",
    )?;
    let classes = dir.path().join("classes");
    cache.insert(spec.adapter_class, Arc::new(dir));
    Ok(classes)
}

/// `IStrategy` of `planetwars.publicapi.IStrategy`.
fn simple_name(class: &str) -> &str {
    class.rsplit('.').next().unwrap_or(class)
}

/// Whether `word` occurs in `text` as a whole Java identifier.
fn names(text: &str, word: &str) -> bool {
    let ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    text.match_indices(word).any(|(at, _)| {
        !text[..at].chars().next_back().is_some_and(ident)
            && !text[at + word.len()..].chars().next().is_some_and(ident)
    })
}

/// The submission's `.java` files, less its own copies of the course's API (arbiter's
/// replace them, as the course's build does), and for a fixed entry class the class that
/// stands for it: the class itself, or else the one class of its simple name in another
/// package (CS61B's tournament builds rename `player` to a login's package,
/// `cs61bayn.player.MachinePlayer`, and the course's referee loads it by that name); anything
/// else is refused, naming what was found.
fn submission_sources(folder: &Path, spec: &JavaSpec) -> Result<(Vec<Source>, String), String> {
    let api: Vec<&str> = spec.api.iter().map(|(p, _)| *p).collect();
    let mut sources = Vec::new();
    let interface = match spec.entry {
        JavaEntry::Implements(i) => Some(simple_name(i)),
        JavaEntry::Class(_) => None,
    };
    for entry in walkdir::WalkDir::new(folder).max_depth(8).sort_by_file_name().into_iter().flatten() {
        let path = entry.path();
        if !entry.file_type().is_file() || path.extension().is_none_or(|x| x != "java") {
            continue;
        }
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let text = crate::harness::files::read_capped_text(path, crate::harness::files::GOLDEN)
            .map_err(|e| e.to_string())?;
        let package = package_of(&text);
        let package_path = match &package {
            Some(package) => format!("{}/{name}", package.replace('.', "/")),
            None => name.clone(),
        };
        let stem = name.strip_suffix(".java").unwrap_or(&name);
        let class = match &package {
            Some(package) => format!("{package}.{stem}"),
            None => stem.to_string(),
        };
        let foreign = spec
            .foreign
            .iter()
            .any(|f| package.as_deref().is_some_and(|p| p == *f || p.starts_with(&format!("{f}."))));
        if !api.contains(&package_path.as_str()) {
            sources.push(Source {
                path: path.to_path_buf(),
                package_path,
                class,
                names_entry: interface.is_some_and(|i| names(&text, i)),
                foreign,
            });
        }
    }
    let entry = match spec.entry {
        JavaEntry::Class(entry) => entry_in(&sources, entry)?,
        JavaEntry::Implements(interface) => interface.to_string(),
    };
    Ok((sources, entry))
}

/// The class that stands for the fixed entry class `entry` among `sources` (see
/// [`submission_sources`]).
fn entry_in(sources: &[Source], entry: &str) -> Result<String, String> {
    if sources.iter().any(|s| s.class == entry) {
        return Ok(entry.to_string());
    }
    let simple = simple_name(entry);
    let same_name: Vec<&Source> = sources.iter().filter(|s| simple_name(&s.class) == simple).collect();
    let packaged: Vec<&&Source> = same_name.iter().filter(|s| s.class.contains('.')).collect();
    match (packaged.as_slice(), same_name.as_slice()) {
        ([one], _) => Ok(one.class.clone()),
        ([], []) => Err(format!(
            "the submission has no {}.java (the class {entry} the course asks for)",
            entry.replace('.', "/")
        )),
        ([], found) => Err(format!(
            "the submission's {simple} is in no package ({}), so it cannot be loaded as {entry}, the class the \
             course asks for: its file needs the line `package {};`",
            found.iter().map(|s| s.package_path.as_str()).collect::<Vec<_>>().join(", "),
            entry.rsplit_once('.').map_or("", |(p, _)| p)
        )),
        (several, _) => Err(format!(
            "the submission has no {entry} but several classes named {simple}: {}; arbiter cannot tell which \
             one the course would load",
            several.iter().map(|s| s.class.as_str()).collect::<Vec<_>>().join(", ")
        )),
    }
}

/// The package a Java source declares, if any.
fn package_of(text: &str) -> Option<String> {
    let mut rest = text;
    loop {
        let trimmed = rest.trim_start();
        if let Some(after) = trimmed.strip_prefix("//") {
            rest = after.split_once('\n').map_or("", |(_, r)| r);
        } else if let Some(after) = trimmed.strip_prefix("/*") {
            rest = after.split_once("*/").map_or("", |(_, r)| r);
        } else if let Some(after) = trimmed.strip_prefix("package") {
            let name = after.split(';').next()?.trim();
            return (!name.is_empty()).then(|| name.to_string());
        } else {
            return None;
        }
    }
}

/// Options of every host JVM: the serial collector (one VM thread, no collector threads), all
/// compiler threads started with the JVM, no attaching, no performance-data file, and the
/// JVM's own messages on stderr (the protocol owns stdout).
const JVM_FLAGS: &str = "-XX:+UseSerialGC -XX:-UseDynamicNumberOfCompilerThreads -XX:+DisableAttachMechanism \
                         -XX:-UsePerfData -XX:+DisplayVMOutputToStderr -Xlog:disable -Xlog:all=warning:stderr";

/// The command line of a host JVM (`java`, heap `heap_mb`) that runs arbiter's `host` classes
/// for `spec`'s game and serves the submission found on `class_path`. The JVM's compiler
/// threads all start with it (none added later), so that arbiter can tell them from the
/// student's threads; nothing may attach to it; its messages go to stderr, never into the
/// protocol on stdout.
fn host_line(java: &Path, spec: &JavaSpec, host: &HostClasses, heap_mb: u64, class_path: &OsStr) -> String {
    format!(
        "{} {JVM_FLAGS} -Xss64m -Xmx{heap_mb}m {} -cp {} arbiter.host.Host {} {}",
        runner::quote(java.as_os_str()),
        spec.jvm_options,
        runner::quote(host.classes.as_os_str()),
        spec.adapter_class,
        runner::quote(class_path),
    )
}

/// arbiter's host classes for one game, in a folder kept while the process may need them.
///
/// No class-data sharing archive of them is made: the JDK archives classes only from jars
/// (`-XX:ArchiveClassesAtExit` refuses a class path with a non-empty folder), and for the one
/// host JVM of a submission the dump's own JVM (0.2 s of CPU) costs far more than the archive
/// saves at the host's start (7 ms, measured with the classes in a jar).
#[derive(Clone)]
struct HostClasses {
    classes: PathBuf,
    _dir: Arc<tempfile::TempDir>,
}

/// Compiles arbiter's own Java sources `files` (outside the sandbox: they are arbiter's code,
/// not a submission's) into `classes`; `what` names them in the error.
fn compile_own(
    javac: &Path,
    extra: &[&str],
    classes: &Path,
    files: &[PathBuf],
    what: &str,
) -> Result<(), String> {
    // javac's own JVM with the client compiler alone and the serial collector: for a few
    // dozen files that is about 40% less CPU time than its defaults (measured 2.6 s -> 1.6 s).
    let output = std::process::Command::new(javac)
        .args(["-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC", "-encoding", "UTF-8", "-nowarn"])
        .args(extra)
        .arg("-d")
        .arg(classes)
        .args(files)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", javac.display()))?;
    if !output.status.success() {
        return Err(format!(
            "{what} does not compile with {}:\n{}",
            javac.display(),
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    Ok(())
}

/// The folders of [`host_classes`], by adapter class.
static HOST_CLASSES: OnceLock<Mutex<HashMap<&'static str, HostClasses>>> = OnceLock::new();

/// Removes the folders of arbiter's compiled Java host (kept for the whole process, and a
/// static is never dropped): called once no more Java submission will run; a later one
/// compiles the host again.
pub fn release() {
    if let Some(cache) = HOST_CLASSES.get() {
        cache.lock().unwrap_or_else(|e| e.into_inner()).clear();
    }
}

/// arbiter's host, the game's adapter, its build step and the course's API, compiled once per
/// process (outside the sandbox: they are arbiter's own code). The API is compiled with each
/// submission too (so that its own copies are replaced); at run time the host's class loader,
/// above the submission's, serves it, so that it is loaded and compiled by the JIT once for
/// all games.
fn host_classes(javac: &Path, java: &Path, spec: &JavaSpec) -> Result<HostClasses, String> {
    let cache = HOST_CLASSES.get_or_init(|| Mutex::new(HashMap::new()));
    let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(host) = cache.get(spec.adapter_class) {
        return Ok(host.clone());
    }
    let dir = tempfile::Builder::new()
        .prefix("arbiter-java-host-")
        .tempdir()
        .map_err(|e| format!("arbiter could not make a temporary folder: {e}"))?;
    let classes = dir.path().join("classes");
    let sources: Vec<(&str, &str)> =
        JAVA_HOST.iter().chain(spec.adapter).chain(COMPILER).chain(spec.api).copied().collect();
    match prebuilt::matching(&sources).filter(|_| prebuilt::runs_on(java)) {
        // Compiled at build time from these very sources: written out, no javac started.
        Some(compiled) => {
            for (path, bytes) in compiled {
                let file = classes.join(path);
                if let Some(parent) = file.parent() {
                    std::fs::create_dir_all(parent)
                        .map_err(|e| format!("cannot make {}: {e}", parent.display()))?;
                }
                std::fs::write(&file, bytes).map_err(|e| format!("cannot write {}: {e}", file.display()))?;
            }
        }
        None => compile_host(javac, dir.path(), &sources)?,
    }
    // Read by the host and the build step, in the sandbox, as its own user.
    build_folder::open_to_bots(dir.path())?;
    let host = HostClasses { classes, _dir: Arc::new(dir) };
    cache.insert(spec.adapter_class, host.clone());
    Ok(host)
}

/// Compiles arbiter's host `sources` with `javac` into `dir`'s `classes` (the way when build.rs
/// had no javac, or the sources or the JVM are not the ones it compiled for).
fn compile_host(javac: &Path, dir: &Path, sources: &[(&str, &str)]) -> Result<(), String> {
    let mut files = Vec::new();
    for (path, text) in sources {
        let file = dir.join("src").join(path);
        write(&file, text)?;
        files.push(file);
    }
    compile_own(javac, &[], &dir.join("classes"), &files, "arbiter's own Java host (a JDK older than 11?)")
}

fn write(file: &Path, text: &str) -> Result<(), String> {
    if let Some(parent) = file.parent() {
        std::fs::create_dir_all(parent).map_err(|e| format!("cannot make {}: {e}", parent.display()))?;
    }
    std::fs::write(file, text).map_err(|e| format!("cannot write {}: {e}", file.display()))
}

#[cfg(test)]
mod tests {
    use super::{compile_host, package_of, prebuilt, tools};

    /// The way without build.rs's classes (a build machine without javac) compiles the same
    /// sources into the same classes.
    #[test]
    fn the_host_compiled_at_run_time_has_the_classes_compiled_at_build_time() {
        let Some(javac) = tools::find("javac") else {
            println!("SKIPPED: no javac");
            return;
        };
        if prebuilt::PREBUILT.is_empty() {
            println!("SKIPPED: this build had no javac, so no host was compiled at build time");
            return;
        }
        for host in prebuilt::PREBUILT {
            let dir = tempfile::tempdir().unwrap();
            compile_host(&javac, dir.path(), host.sources).unwrap();
            let classes = dir.path().join("classes");
            let mut made: Vec<String> = walkdir::WalkDir::new(&classes)
                .into_iter()
                .flatten()
                .filter(|e| e.file_type().is_file())
                .map(|e| e.path().strip_prefix(&classes).unwrap().to_string_lossy().into_owned())
                .collect();
            made.sort();
            let mut embedded: Vec<String> = host.classes.iter().map(|(p, _)| p.to_string()).collect();
            embedded.sort();
            assert_eq!(made, embedded);
            assert!(prebuilt::matching(host.sources).is_some());
        }
    }

    #[test]
    fn the_package_is_found_after_comments() {
        assert_eq!(package_of("/* a\n b */\n// c\npackage player;\nclass X {}"), Some("player".into()));
        assert_eq!(package_of("package  a.b ;"), Some("a.b".into()));
        assert_eq!(package_of("import x;\npackage y;"), None);
        assert_eq!(package_of("class X {}"), None);
    }
}
