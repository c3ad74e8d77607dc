//! The partial result of one shard, and the run of one shard that makes it.

use serde::{Deserialize, Serialize};

use super::partition::{plan, Partition};
use super::shard::{Shard, ShardError};
use crate::exec::{Observer, Run, Selection, Tally, Times};
use crate::plan::{Piece, Plan};
use crate::{Engine, Options};

/// The `format` field of a partial result.
pub const SHARD_FORMAT: &str = "nqueens-shard";
/// The version of the partial-result format (and of the partition) this program writes.
pub const FORMAT_VERSION: u32 = 5;
/// The versions this program reads: 5, 4 (the same, without `decomposition`), 3 (without
/// `machine` either) and 2 (without `cpu_seconds` either); all share the partition.
pub const FORMAT_VERSIONS_READ: [u32; 4] = [2, 3, 4, 5];

/// What one shard found: everything [`crate::cluster::merge`] needs to check it belongs and sum it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct PartialResult {
    /// Always [`SHARD_FORMAT`].
    pub format: String,
    /// [`FORMAT_VERSION`] of the program that wrote it.
    pub format_version: u32,
    /// The version of nqueens that wrote it.
    pub program_version: String,
    /// Board size.
    pub n: u32,
    /// The engine of the plan.
    pub engine: Engine,
    /// Split depth of the plan.
    pub split_depth: u32,
    /// Subproblems in the whole plan.
    pub plan_subproblems: usize,
    /// [`Plan::fingerprint`] of the plan, in 8 hex digits.
    pub plan: String,
    /// This shard, from 1.
    pub shard: u32,
    /// K: shards in the run.
    pub shards: u32,
    /// Subproblems of this shard.
    pub subproblems: usize,
    /// [`Partition::digest`] of this shard's ids.
    pub ids_digest: String,
    /// Σ weight × completions over this shard's subproblems (a decimal string: exact in any
    /// JSON reader, which a 64-bit float is not beyond 2^53).
    #[serde(with = "decimal")]
    pub total: u128,
    /// Wall time of this shard's search.
    pub elapsed_seconds: f64,
    /// CPU time of this shard's runs together, every thread counted (version 3; `None` in a
    /// version 2 file).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_seconds: Option<f64>,
    /// Worker threads it ran on.
    pub threads: usize,
    /// The name of the machine it ran on.
    pub host: String,
    /// The identity of the machine it ran on: hashes of its machine id and boot id (version 4;
    /// `None` in older files or where the system has neither).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub machine: Option<String>,
    /// How the plan counts a board's units, `whole`, `quarter-turn` or `innermost`
    /// ([`crate::Decomposition::name`]; version 5; `None` in older files, in odd boards' files
    /// written before their innermost key, and where there is one way only: other engines). The plan
    /// fingerprint says it too; this says it in words, for whoever reads the file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decomposition: Option<String>,
    /// `crc32:` and the CRC-32 of every other field ([`PartialResult::expected_checksum`]): a
    /// changed digit anywhere, or a field copied from another result, is refused by merge.
    pub checksum: String,
}

impl PartialResult {
    /// Which shard this is (an error for a file that names no shard of 1 to K).
    pub fn shard(&self) -> Result<Shard, ShardError> {
        Shard::new(self.shard, self.shards)
    }

    /// What [`PartialResult::checksum`] must be: the CRC-32 of every other field, one per line,
    /// in the order of the struct (the time as the bits of its `f64`, so no rounding enters).
    pub fn expected_checksum(&self) -> String {
        let fields = [
            self.format.clone(),
            self.format_version.to_string(),
            self.program_version.clone(),
            self.n.to_string(),
            self.engine.name().to_string(),
            self.split_depth.to_string(),
            self.plan_subproblems.to_string(),
            self.plan.clone(),
            self.shard.to_string(),
            self.shards.to_string(),
            self.subproblems.to_string(),
            self.ids_digest.clone(),
            self.total.to_string(),
            format!("{:016x}", self.elapsed_seconds.to_bits()),
            self.threads.to_string(),
            self.host.clone(),
        ];
        // Version 3 adds the CPU time after the fields of version 2, version 4 the machine
        // after it and version 5 the decomposition, so that older files' checksums stay.
        let fields: Vec<String> = fields
            .into_iter()
            .chain(
                self.cpu_seconds
                    .map(|cpu| format!("{:016x}", cpu.to_bits())),
            )
            .chain(self.machine.clone())
            .chain(self.decomposition.clone())
            .collect();
        format!(
            "crc32:{:08x}",
            crc32fast::hash(fields.join("\n").as_bytes())
        )
    }

    /// Pretty JSON, ending in a newline.
    pub fn json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a partial result always serialises") + "\n"
    }
}

/// One shard of one run: the whole plan, its partition, and the shard this process counts.
///
/// [`count`] is `new`, [`Run::once`] over [`ShardRun::selection`], then [`ShardRun::result`].
/// A caller that already has part of the shard (a checkpoint) opens a [`Run`] of the selection
/// on it, whose fold covers both: `result` refuses a tally that does not cover exactly the
/// shard's subproblems.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ShardRun {
    /// The plan every shard of the run executes.
    pub plan: Plan,
    /// Who owns which subproblem.
    pub partition: Partition,
    /// The shard counted here.
    pub shard: Shard,
}

impl ShardRun {
    /// The plan and partition of `shard` of the `n`-board ([`plan`], [`Partition::new`]).
    pub fn new(n: u32, options: &Options, shard: Shard) -> Result<ShardRun, crate::Error> {
        let plan = plan(n, options, shard.count())?;
        let partition = Partition::new(&plan, shard.count(), options.threads)?;
        Ok(ShardRun {
            plan,
            partition,
            shard,
        })
    }

    /// Whether `piece` is this shard's.
    pub fn owns(&self, piece: Piece) -> bool {
        self.partition.owns(self.shard, piece)
    }

    /// The shard's part of the plan, as a run counts it and its checkpoint names it
    /// ([`Shard::selection_name`]).
    pub fn selection(&self) -> Selection<'_> {
        Selection::new(&self.shard.selection_name(), |piece| self.owns(piece))
    }

    /// The partial result of the shard from the fold of all its subproblems, searched in
    /// `times` (every run of it together) on `threads` threads; `Interrupted` when `tally` does
    /// not cover the shard.
    pub fn result(
        &self,
        tally: Tally,
        times: Times,
        threads: usize,
    ) -> Result<PartialResult, crate::Error> {
        let ids = self.partition.ids(self.shard).len();
        if tally.pieces != ids {
            return Err(crate::Error::Interrupted(crate::Interrupted {
                done: tally.pieces,
                of: ids,
                pieces_are: self.plan.pieces_are(),
                paused: 0,
                checkpoint: None,
            }));
        }
        let mut result = PartialResult {
            format: SHARD_FORMAT.to_string(),
            format_version: FORMAT_VERSION,
            program_version: env!("CARGO_PKG_VERSION").to_string(),
            n: self.plan.n(),
            engine: self.plan.engine(),
            split_depth: self.plan.split_depth(),
            plan_subproblems: self.plan.len(),
            plan: format!("{:08x}", self.plan.fingerprint()),
            shard: self.shard.index(),
            shards: self.shard.count(),
            subproblems: ids,
            ids_digest: self.partition.digest(self.shard),
            total: tally.total,
            elapsed_seconds: times.wall.as_secs_f64(),
            cpu_seconds: Some(times.cpu.as_secs_f64()),
            threads,
            host: gethostname::gethostname().to_string_lossy().into_owned(),
            machine: crate::cluster::host::machine(),
            decomposition: self.plan.decomposition().map(|d| d.name().to_string()),
            checksum: String::new(),
        };
        result.checksum = result.expected_checksum();
        Ok(result)
    }
}

/// Counts shard `shard` of the `n`-board, telling `observer` of each finished subproblem.
pub fn count(
    n: u32,
    options: &Options,
    shard: Shard,
    observer: &dyn Observer,
) -> Result<PartialResult, crate::Error> {
    let run = ShardRun::new(n, options, shard)?;
    let finished = Run::once(
        &run.plan,
        run.selection(),
        options.threads,
        options.count_nodes,
        observer,
    )?;
    run.result(finished.tally, finished.all_runs(), options.threads)
}

/// A `u128` as a JSON string of decimal digits.
mod decimal {
    use serde::{de::Error, Deserialize, Deserializer, Serializer};

    pub(crate) fn serialize<S: Serializer>(value: &u128, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(value)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u128, D::Error> {
        let text = String::deserialize(d)?;
        text.parse()
            .map_err(|_| D::Error::custom(format!("{text:?} is not a whole number")))
    }
}
