//! What a game tells the host layer about its submissions: the course's API that arbiter
//! provides, the adapter that drives a submission, the class or module a submission must have.

/// How a game's bots are hosted: as Java classes, as a Python module, or both.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostSpec {
    /// The game's Java side, if its submissions are Java classes.
    pub java: Option<JavaSpec>,
    /// The game's Python side, if its submissions are Python modules.
    pub python: Option<PythonSpec>,
}

/// The class a Java submission is driven through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JavaEntry {
    /// A class of this full name (Network's `player.MachinePlayer`): the course fixes it.
    Class(&'static str),
    /// The one class that implements this interface (PlanetWars'
    /// `planetwars.publicapi.IStrategy`): students name their class as they like. The host's
    /// adapter picks it among the submission's classes (`load {"candidates": [...]}`); a
    /// grader names it by giving the class's `.java` file as the bot (`load {"class": ...}`).
    Implements(&'static str),
}

/// A game whose submission is Java classes (Network's `player.MachinePlayer`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JavaSpec {
    /// The class a submission must provide.
    pub entry: JavaEntry,
    /// The course's API, as arbiter ships it, compiled with the submission: (path under the
    /// source root, text), e.g. (`player/Player.java`, ...). A submission's own copy of such
    /// a file is replaced by arbiter's, as the course's build would.
    pub api: &'static [(&'static str, &'static str)],
    /// The game's adapter: (path under the source root, text) of each file, and the class the
    /// host loads (`arbiter.host.NetworkAdapter`).
    pub adapter: &'static [(&'static str, &'static str)],
    /// The adapter class's full name.
    pub adapter_class: &'static str,
    /// Options for the host's JVM besides arbiter's own (PlanetWars: `-XX:TieredStopAtLevel=1`,
    /// since each game loads the strategy afresh and would pay the optimising compiler again).
    pub jvm_options: &'static str,
    /// Packages of the course's own code that arbiter does not ship (PlanetWars' engine,
    /// `planetwars.core`): a submission's copies of their files are not compiled.
    pub foreign: &'static [&'static str],
}

/// A game whose submission is one Python module (the chess assignment's `a1.py`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PythonSpec {
    /// The module file a submission provides (`a1.py`).
    pub module: &'static str,
    /// Files arbiter places beside it unless the grader gives their own (`a1_support.py`).
    pub support: &'static [(&'static str, &'static str)],
    /// The Python the course runs, as (major, minor): the module must parse under that
    /// version's grammar (`ast.parse(..., feature_version=...)`, in the sandbox), or it is not
    /// loaded, as the course gives no functionality marks to a module its interpreter refuses.
    /// `None`: whatever the host's interpreter takes.
    pub python: Option<(u8, u8)>,
}

/// arbiter's generic Java host sources: (path under the source root, text).
pub const JAVA_HOST: &[(&str, &str)] = &[
    ("arbiter/host/Host.java", include_str!("../../../hosts/java/common/arbiter/host/Host.java")),
    ("arbiter/host/Json.java", include_str!("../../../hosts/java/common/arbiter/host/Json.java")),
    ("arbiter/host/Adapter.java", include_str!("../../../hosts/java/common/arbiter/host/Adapter.java")),
];

/// arbiter's Python host.
pub const PYTHON_HOST: &str = include_str!("../../../hosts/python/arbiter_host.py");
