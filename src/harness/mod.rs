//! The harness: everything that runs bots and reports on them, apart from any game's rules.
//! Games plug in through [`referee::Referee`].

pub mod analyst;
pub mod bot;
pub mod calibrate;
pub mod category;
pub mod corpus;
pub mod diagnostics;
pub mod escape;
pub mod failure;
pub mod files;
pub mod forfeits;
pub mod fuzz;
pub mod grade;
pub mod gradebook;
pub mod host;
pub mod html;
pub mod interrupt;
pub mod machine;
pub mod matches;
pub mod output_file;
pub mod profile;
pub mod rating;
pub mod records;
pub mod referee;
pub mod report;
pub mod robustness;
pub mod runner;
pub mod sandbox;
pub mod shard;
pub mod submission_options;
pub mod tournament;
pub mod untrusted;
pub mod verdict;
pub mod verify;
