//! The gradebook: one row per submission, as CSV (RFC 4180, through the `csv` crate) for a
//! spreadsheet and as JSON for machines.
//!
//! Columns: `submission`, `bot_name`, `status` (`graded` or `refused`), `score`, then for each
//! stage of the marking profile `<stage>_passed` and `<stage>_total` (e.g. `grade4_passed`),
//! `stopped_at`, `games_played`, `games_won`, `games_score` (empty when no games were played, or
//! when the bot forfeited every game), `cases_run`, `not_run`, `timeouts` (cases that timed out,
//! and games lost by running out of time), `crashes` (cases that crashed, and games lost by a
//! crash or an exception), `wall_seconds`, `note`. Rows are sorted by submission name.
//!
//! Text a student controls (the bot's name, a folder's name, notes quoting the bot) is hostile:
//! besides CSV quoting, a cell starting with `=`, `+`, `-`, `@`, a tab or a carriage return gets
//! a leading `'`, so that no spreadsheet runs it as a formula (OWASP's advice on CSV
//! injection). Numbers are written as numbers and never start that way except a negative one,
//! which a score cannot be.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::category;

/// One stage's pass count in a row.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StageCell {
    /// The stage's category (`grade4`, `block`).
    pub category: String,
    pub passed: usize,
    pub total: usize,
    /// Whether the gate let the submission reach the stage.
    pub reached: bool,
}

/// A submission's row.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// The submission's name (its folder's name, or its command made safe).
    pub submission: String,
    /// What the bot answered to `BOT name` (escaped, at most 64 characters), empty if nothing.
    pub bot_name: String,
    /// `graded`, or `refused` when the bot could not be started.
    pub status: String,
    /// The score by the marking profile, in percent.
    pub score: f64,
    pub stages: Vec<StageCell>,
    /// The category of the first stage not passed in full.
    pub stopped_at: Option<String>,
    pub games_played: Option<usize>,
    pub games_won: Option<usize>,
    /// The games stage's score, when it earned one.
    pub games_score: Option<f64>,
    pub cases_run: usize,
    pub not_run: usize,
    /// Cases that timed out, and games lost by running out of time (CPU, idle time or clock).
    pub timeouts: usize,
    /// Cases that crashed, and games lost by a crash or an exception (0 in rows older than the
    /// column).
    #[serde(default)]
    pub crashes: usize,
    /// Seconds the submission took, tenths (measured, so not reproducible).
    pub wall_seconds: f64,
    /// Refusals, cases not run and why, games not scored.
    pub note: String,
}

/// Neutralises a cell a spreadsheet would take as a formula, by a leading `'`.
pub fn neutralise(cell: &str) -> String {
    if cell.starts_with(['=', '+', '-', '@', '\t', '\r']) { format!("'{cell}") } else { cell.to_string() }
}

/// The header for rows scored by stages of these categories.
pub fn header(categories: &[String]) -> Vec<String> {
    let mut h: Vec<String> = ["submission", "bot_name", "status", "score"].map(String::from).to_vec();
    for c in categories {
        h.push(format!("{c}_passed"));
        h.push(format!("{c}_total"));
    }
    for name in [
        "stopped_at",
        "games_played",
        "games_won",
        "games_score",
        "cases_run",
        "not_run",
        "timeouts",
        "crashes",
        "wall_seconds",
        "note",
    ] {
        h.push(name.to_string());
    }
    h
}

fn number(x: f64) -> String {
    // Scores are hundredths: `85` and `49.5`, not `85.0000001`.
    let rounded = (x * 100.0).round() / 100.0;
    format!("{rounded}")
}

impl Row {
    /// The categories of the row's stages.
    pub fn categories(&self) -> Vec<String> {
        self.stages.iter().map(|s| s.category.clone()).collect()
    }

    /// The row's cells, in [`header`] order, neutralised.
    pub fn cells(&self) -> Vec<String> {
        let opt = |x: Option<usize>| x.map(|n| n.to_string()).unwrap_or_default();
        let mut cells = vec![
            neutralise(&self.submission),
            neutralise(&self.bot_name),
            neutralise(&self.status),
            number(self.score),
        ];
        for s in &self.stages {
            cells.push(s.passed.to_string());
            cells.push(s.total.to_string());
        }
        cells.extend([
            self.stopped_at.as_deref().map(category::label).unwrap_or_default(),
            opt(self.games_played),
            opt(self.games_won),
            self.games_score.map(number).unwrap_or_default(),
            self.cases_run.to_string(),
            self.not_run.to_string(),
            self.timeouts.to_string(),
            self.crashes.to_string(),
            format!("{:.1}", self.wall_seconds),
            neutralise(&self.note),
        ]);
        cells
    }
}

/// A gradebook as CSV text: the header and rows as records, sorted by submission.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    pub header: Vec<String>,
    pub records: Vec<Vec<String>>,
}

impl Table {
    /// The table of `rows`, which must all have the same stages.
    pub fn from_rows(rows: &[Row]) -> Result<Table, String> {
        let categories = rows.first().map(Row::categories).unwrap_or_default();
        if let Some(odd) = rows.iter().find(|r| r.categories() != categories) {
            return Err(format!(
                "the rows were scored by different profiles: `{}` has stages {:?}, `{}` has {:?}",
                rows[0].submission,
                categories,
                odd.submission,
                odd.categories()
            ));
        }
        let mut records: Vec<Vec<String>> = rows.iter().map(Row::cells).collect();
        records.sort();
        Ok(Table { header: header(&categories), records })
    }

    /// Reads a gradebook CSV file.
    pub fn read(path: &Path) -> Result<Table, String> {
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(true)
            .from_path(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let header = reader
            .headers()
            .map_err(|e| format!("{}: {e}", path.display()))?
            .iter()
            .map(String::from)
            .collect::<Vec<_>>();
        if header.first().map(String::as_str) != Some("submission") {
            return Err(format!(
                "{}: not a gradebook (its first column is not `submission`)",
                path.display()
            ));
        }
        let mut records = Vec::new();
        for record in reader.records() {
            let record = record.map_err(|e| format!("{}: {e}", path.display()))?;
            records.push(record.iter().map(String::from).collect());
        }
        Ok(Table { header, records })
    }

    /// The table as CSV text, every cell quoted when it must be (RFC 4180).
    pub fn to_csv(&self) -> Result<Vec<u8>, String> {
        let mut writer = csv::WriterBuilder::new().terminator(csv::Terminator::CRLF).from_writer(Vec::new());
        writer.write_record(&self.header).map_err(|e| e.to_string())?;
        for r in &self.records {
            writer.write_record(r).map_err(|e| e.to_string())?;
        }
        writer.into_inner().map_err(|e| e.to_string())
    }

    /// Merges tables with the same header: one record per submission (the first column),
    /// sorted. The same submission twice with different records is an error, naming it.
    pub fn merge(tables: Vec<(String, Table)>) -> Result<Table, String> {
        let mut merged: Option<Table> = None;
        let mut seen: std::collections::BTreeMap<String, (String, Vec<String>)> = Default::default();
        for (source, table) in tables {
            if let Some(m) = &merged
                && m.header != table.header
            {
                return Err(format!(
                    "{source}: its columns differ from the others' (another marking profile?)"
                ));
            }
            for record in &table.records {
                let key = record.first().cloned().unwrap_or_default();
                match seen.get(&key) {
                    // The wall time is measured, not a result: two runs of one submission differ
                    // in it and nothing else.
                    Some((_, old)) if same_but_time(&table.header, old, record) => {}
                    Some((first, _)) => {
                        return Err(format!(
                            "the submission `{key}` has different rows in {first} and {source}: grade it once"
                        ));
                    }
                    None => {
                        seen.insert(key, (source.clone(), record.clone()));
                    }
                }
            }
            merged.get_or_insert(Table { header: table.header, records: Vec::new() });
        }
        let mut table = merged.ok_or("nothing to merge")?;
        table.records = seen.into_values().map(|(_, r)| r).collect();
        Ok(table)
    }
}

/// Whether two records are equal in every column but `wall_seconds`.
fn same_but_time(header: &[String], a: &[String], b: &[String]) -> bool {
    let time = header.iter().position(|h| h == "wall_seconds");
    a.len() == b.len() && a.iter().zip(b).enumerate().all(|(i, (x, y))| Some(i) == time || x == y)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(name: &str, bot: &str) -> Row {
        Row {
            submission: name.to_string(),
            bot_name: bot.to_string(),
            status: "graded".to_string(),
            score: 49.5,
            stages: vec![StageCell { category: "grade4".to_string(), passed: 1, total: 2, reached: true }],
            stopped_at: Some("grade4".to_string()),
            games_played: None,
            games_won: None,
            games_score: None,
            cases_run: 2,
            not_run: 0,
            timeouts: 0,
            crashes: 0,
            wall_seconds: 1.25,
            note: String::new(),
        }
    }

    #[test]
    fn formulas_are_neutralised_and_quotes_doubled() {
        let table =
            Table::from_rows(&[row("b", "=HYPERLINK(\"x\")"), row("a", "+1, \"two\"\nthree")]).unwrap();
        let text = String::from_utf8(table.to_csv().unwrap()).unwrap();
        assert!(text.starts_with("submission,bot_name,status,score,grade4_passed,grade4_total,stopped_at,"));
        assert!(text.contains("a,\"'+1, \"\"two\"\"\nthree\",graded,49.5,1,2,grade 4,"), "{text}");
        assert!(text.contains("b,\"'=HYPERLINK(\"\"x\"\")\",graded"), "{text}");
        assert!(text.find("\r\na,").unwrap() < text.find("\r\nb,").unwrap(), "sorted by submission");
    }

    #[test]
    fn a_written_table_reads_back_and_merges() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("g.csv");
        let table = Table::from_rows(&[row("a", "@x"), row("b", "y")]).unwrap();
        std::fs::write(&path, table.to_csv().unwrap()).unwrap();
        assert_eq!(Table::read(&path).unwrap(), table);
        let one = Table::from_rows(&[row("a", "@x")]).unwrap();
        let mut other = row("b", "y");
        other.wall_seconds = 9.0;
        let two = Table::from_rows(&[other.clone(), row("a", "@x")]).unwrap();
        let merged = Table::merge(vec![("1".into(), one), ("2".into(), two)]).unwrap();
        assert_eq!(merged.records.len(), 2);
        other.score = 1.0;
        let clash = Table::from_rows(&[other]).unwrap();
        let err = Table::merge(vec![("1".into(), table), ("2".into(), clash)]).unwrap_err();
        assert!(err.contains("`b` has different rows"), "{err}");
    }
}
