//! Merge: checks that partial results are the K shards of one run, each exactly once, and sums them.
//!
//! A merge cannot be fooled: every input must parse completely as a [`PartialResult`] of the
//! format this program reads, with its checksum intact; all must agree on format version, n,
//! engine, plan (its fingerprint too) and K; every shard from 1 to K must be present, and a
//! shard found twice is a warning when both copies agree and a refusal when they do not (both
//! checked from the files alone, before any plan is built); each shard's subproblems must be
//! those the [`Partition`] of that plan gives it (the count and the digest of its ids are
//! recomputed). Every refusal names the inputs and shards at fault; what it quotes of a file is
//! escaped and cut, and its lists are capped.
//!
//! Above n = 27 no published count can catch a wrong total, so a merge there asks for a
//! *quorum* ([`Quorum`]): every shard counted on Q different hosts (each result names its host),
//! with equal totals; a merge of such a board without one is refused unless a quorum of 1 is
//! asked for explicitly. The CRC-32 of a result shows damage, not forgery: anyone can recompute
//! it after editing a file, which only a second count, elsewhere, can catch.
//!
//! ```
//! use nqueens::cluster::{count_shard, merge, Input, Shard};
//! use nqueens::exec::Unobserved;
//!
//! let options = nqueens::Options::default().with_threads(1);
//! let inputs: Vec<Input> = Shard::all(3)
//!     .map(|s| Input {
//!         name: format!("s{}.json", s.index()),
//!         text: count_shard(10, &options, s, &Unobserved).unwrap().json(),
//!     })
//!     .collect();
//! let merged = merge(&inputs, 1).unwrap();
//! assert_eq!(merged.counts.total, 724);
//! // One shard short: refused, naming it.
//! let e = merge(&inputs[..2], 1).unwrap_err();
//! assert!(e.to_string().contains("missing 1 shard of 3: 3"));
//! ```
//!
//! Inputs are read one by one ([`Reader`]): a file's text can be dropped once its results are
//! read, and all inputs together may hold at most [`MAX_TOTAL_BYTES`], so the memory a merge
//! takes is bounded however many files it is given.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Display;
use std::time::Duration;

use serde_json::Value;

use crate::cluster::host;
use crate::cluster::partial::FORMAT_VERSIONS_READ;
use crate::cluster::{PartialResult, Partition, Shard};
use crate::util::text::plural;
use crate::util::text::{capped, excerpt};
use crate::{Counts, Options};
use crate::{Decomposition, Plan};

mod object;

use object::{campaign_name, Kind, Object, RUN_FIELDS};

/// The largest input merge reads: 10,000 shard results take about 6 MiB.
pub const MAX_INPUT_BYTES: u64 = 64 << 20;

/// The most all inputs of one merge may hold together (about 1.5 million shard results): a
/// result read takes less memory than its text, so a merge stays within about this much.
pub const MAX_TOTAL_BYTES: u64 = 1 << 30;

/// One input: a name for messages (a file name) and its text, holding one or more partial
/// results (JSON objects one after another, as `cat` or GNU parallel put them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Input {
    /// What messages call it.
    pub name: String,
    /// Its contents.
    pub text: String,
}

/// The sum of a complete set of shards.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Merged {
    /// The count, as [`crate::count`] would give it. `elapsed` is the sum of the shards' times
    /// and `threads` the most any shard ran on.
    pub counts: Counts,
    /// One result per shard, shard 1 first.
    pub shards: Vec<PartialResult>,
    /// Things worth saying that do not stop the merge (a shard given twice, identically).
    pub warnings: Vec<String>,
    /// The plan's fingerprint, in 8 hex digits, as the shard files name it.
    pub plan: String,
    /// How the plan counts a board's units (`None` where there is one way only: the
    /// backtracking engines).
    pub decomposition: Option<crate::Decomposition>,
}

/// Why a set of partial results does not add up to a count.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum MergeError {
    /// Nothing to merge.
    #[error("nothing to merge: give the shard result files")]
    Empty,
    /// Inputs that are not complete partial results.
    #[error("cannot merge: {}", capped(.0, "; "))]
    Malformed(Vec<String>),
    /// Inputs from different runs.
    #[error("cannot merge results of different runs: mixed {field}: {}", capped(.groups, "; "))]
    Mixed {
        /// What differs.
        field: &'static str,
        /// `value in input, input, …` for each value.
        groups: Vec<String>,
    },
    /// A shard whose subproblems are not the ones the partition gives it.
    #[error("cannot merge: {}", capped(.0, "; "))]
    Foreign(Vec<String>),
    /// One shard with two different results.
    #[error("cannot merge: {}", capped(.0, "; "))]
    Conflict(Vec<String>),
    /// Shards not given.
    #[error("cannot merge: missing {} of {shards}: {} (read {read})", plural(.missing.len(), "shard"), list(.missing))]
    Missing {
        /// The missing shards, from 1.
        missing: Vec<u32>,
        /// K.
        shards: u32,
        /// What was read, as `input (shard i)`.
        read: String,
    },
    /// Several campaigns of one board (decompositions, or values of K) in one set, one or more
    /// of them whole and the others short of shards: each of those, with the shards it lacks.
    #[error("cannot merge: of the {campaigns} campaigns given, {}", capped(.gaps, "; "))]
    MissingIn {
        /// How many campaigns the set holds.
        campaigns: usize,
        /// Each campaign short of shards, with the shards it lacks.
        gaps: Vec<String>,
    },
    /// Shards not counted on as many different hosts as the quorum asks.
    #[error("cannot merge: a quorum of {quorum} asks for every shard counted on {quorum} different machines: {}", capped(.short, "; "))]
    Quorum {
        /// The quorum.
        quorum: u32,
        /// Each shard short of it, with the hosts it was counted on.
        short: Vec<String>,
    },
    /// A board with no published count, merged without a quorum.
    #[error("n = {n} has no published count to check the total against: count every shard twice, on different hosts, and merge with a quorum of 2 (or accept one count of each with a quorum of 1)")]
    NoQuorum {
        /// Board size.
        n: u32,
    },
    /// The plan named by the inputs cannot be rebuilt.
    #[error("cannot rebuild the plan of {input}: {source}")]
    Plan {
        /// The input that names it.
        input: String,
        /// Why.
        source: crate::Error,
    },
}

fn list<T: Display>(items: &[T]) -> String {
    capped(items, ", ")
}

/// How many different hosts must have counted each shard.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Quorum {
    /// One count of each shard where the published table checks the total (n ≤ 27); above,
    /// refused ([`MergeError::NoQuorum`]).
    #[default]
    Default,
    /// Each shard counted on this many different machines (1: one count is enough, also above
    /// n = 27). A copy whose file carries no machine identity (formats 2 and 3, or a system
    /// with neither a machine id nor a boot id) counts as no machine towards a quorum of 2 or
    /// more: a host name alone is too easily the same machine under two names.
    Hosts(u32),
    /// As [`Quorum::Hosts`], but a copy without a machine identity counts as the machine its
    /// host name names: the user vouches for the names.
    HostsByName(u32),
}

/// Checks and sums `inputs` with the default [`Quorum`]; `threads` only speeds up rebuilding
/// the partition.
pub fn merge(inputs: &[Input], threads: usize) -> Result<Merged, MergeError> {
    merge_with(inputs, threads, Quorum::Default)
}

/// Checks and sums `inputs`, each shard counted on as many hosts as `quorum` asks.
pub fn merge_with(inputs: &[Input], threads: usize, quorum: Quorum) -> Result<Merged, MergeError> {
    let mut reader = Reader::default();
    for input in inputs {
        reader.add(input);
    }
    reader.merge(threads, quorum)
}

/// Partial results read input by input, for [`Reader::merge`]: each input's text can be dropped
/// once it is read.
#[derive(Debug, Default)]
pub struct Reader {
    /// Every object read, named `file` or `file#k` (the k-th object of a file with several).
    read: Vec<Object>,
    /// Inputs that are not JSON objects one after another.
    broken: Vec<String>,
    /// Bytes read so far, over every input.
    bytes: u64,
}

impl Reader {
    /// Reads the partial results in `input`.
    pub fn add(&mut self, input: &Input) {
        self.bytes = self.bytes.saturating_add(input.text.len() as u64);
        if self.bytes > MAX_TOTAL_BYTES {
            self.broken.push(format!(
                "{}: the inputs hold more than {} MiB in all, far more than any set of shard \
                 results",
                excerpt(&input.name),
                MAX_TOTAL_BYTES >> 20
            ));
            return;
        }
        // How many objects, without building them, so that each is named before it is read.
        let mut count = 0;
        for object in
            serde_json::Deserializer::from_str(&input.text).into_iter::<serde::de::IgnoredAny>()
        {
            count += 1;
            if object.is_err() {
                break;
            }
        }
        let objects = serde_json::Deserializer::from_str(&input.text).into_iter::<Value>();
        let mut seen = 0;
        for (k, object) in objects.enumerate() {
            seen += 1;
            let name = if count > 1 {
                format!("{}#{}", input.name, k + 1)
            } else {
                input.name.clone()
            };
            match object {
                Ok(v) => self.read.push(Object::of(name, v)),
                Err(e) if e.is_eof() => self.broken.push(format!(
                    "{name} is truncated ({}): was its shard killed?",
                    excerpt(&e.to_string())
                )),
                Err(_) if k == 0 && input.text.starts_with("nqueens-checkpoint ") => {
                    self.broken.push(format!(
                        "{name} is a checkpoint, not a shard result: a shard writes its result \
                         (-o FILE.json) when it finishes; run its count again to finish it from \
                         the checkpoint"
                    ));
                    break;
                }
                Err(e) => {
                    self.broken.push(format!(
                        "{name} is not valid JSON ({})",
                        excerpt(&e.to_string())
                    ));
                    break;
                }
            }
        }
        if seen == 0 {
            self.broken
                .push(format!("{} is empty, not a shard result", input.name));
        }
    }

    /// Checks and sums what was read, each shard counted on as many hosts as `quorum` asks;
    /// `threads` only speeds up rebuilding the partition.
    pub fn merge(self, threads: usize, quorum: Quorum) -> Result<Merged, MergeError> {
        check(self.read, self.broken, threads, quorum)
    }

    /// [`Reader::merge`], except where the results are whole runs of one board, each by
    /// another of its decompositions (campaign.md: a count confirmed by another
    /// decomposition) or split another number of ways K: then each is merged on its own, and
    /// all are returned, whole units first, then the quarter turn, then the innermost key, each
    /// by K. Shards of two mixed in one set are still refused as of different runs.
    pub fn merge_each(self, threads: usize, quorum: Quorum) -> Result<Vec<Merged>, MergeError> {
        let campaigns: BTreeSet<(&str, &str)> =
            self.read.iter().map(|o| o.run.campaign()).collect();
        let one_board = self
            .read
            .windows(2)
            .all(|w| (&w[0].run.n, &w[0].run.engine) == (&w[1].run.n, &w[1].run.engine));
        if campaigns.len() < 2 || !self.broken.is_empty() || !one_board {
            return self.merge(threads, quorum).map(|m| vec![m]);
        }
        let all = self.read.clone();
        let mixed = |threads| match check(all, Vec::new(), threads, quorum) {
            Err(e) => e,
            Ok(_) => unreachable!("a set of two campaigns never merges as one"),
        };
        // Each campaign's objects, in the order of its (plan, K).
        let mut groups: BTreeMap<(String, String), Vec<Object>> = BTreeMap::new();
        for object in self.read {
            let (plan, shards) = object.run.campaign();
            let key = (plan.to_string(), shards.to_string());
            groups.entry(key).or_default().push(object);
        }
        let mut each = Vec::new();
        let mut gaps = Vec::new();
        for group in groups.into_values() {
            let name = campaign_name(&group);
            match check(group, Vec::new(), threads, quorum) {
                Ok(merged) => each.push(merged),
                // A campaign short of shards beside a whole one is named with the shards it
                // lacks: that is what the user must count again.
                Err(MergeError::Missing {
                    missing, shards, ..
                }) => gaps.push(format!(
                    "{name} lacks {} of {shards}: {}",
                    plural(missing.len(), "shard"),
                    list(&missing)
                )),
                Err(e) => return Err(e),
            }
        }
        // None whole: one run's shards under several names (another K, another plan, a file
        // changed), refused as a mixed set.
        if each.is_empty() {
            return Err(mixed(threads));
        }
        if !gaps.is_empty() {
            return Err(MergeError::MissingIn {
                campaigns: each.len() + gaps.len(),
                gaps,
            });
        }
        // Whole campaigns of one board, by other decompositions or other K: each a count of
        // its own, which `status` lists apart too.
        each.sort_by_key(|m| {
            (
                std::cmp::Reverse(m.decomposition.map(Decomposition::name)),
                m.shards.first().map(|r| r.shards),
            )
        });
        Ok(each)
    }
}

/// The checks of a merge, in the order that names the first thing wrong: broken inputs, foreign
/// ones, mixed runs, another format version, damaged results, shards that are not numbers of
/// K; then, from the files alone, conflicting copies and missing shards; only then the plan, and
/// each shard held to its partition.
fn check(
    read: Vec<Object>,
    broken: Vec<String>,
    threads: usize,
    quorum: Quorum,
) -> Result<Merged, MergeError> {
    let results = readable(read, broken)?;
    let first = &results[0].1;
    let quorum = quorum_for(quorum, first.n)?;
    let by_shard = by_shard(&results)?;
    // Copies, hosts and gaps, from the files alone: no plan is built for a set that cannot add up.
    let warnings = copies(&by_shard, quorum.quorum, first.shards)?;
    on_enough_hosts(&by_shard, quorum, first.shards)?;
    complete(&by_shard, &results, first.shards)?;
    let plan = held_to_plan(&results, threads)?;
    fold(&by_shard, &plan, warnings)
}

/// Shard files by name and shard: each shard's copies.
type ByShard<'a> = BTreeMap<u32, Vec<(&'a str, &'a PartialResult)>>;

/// The results of the files read, when every one parsed, is a shard result of one run, and is
/// in a format version this program reads.
fn readable(
    read: Vec<Object>,
    broken: Vec<String>,
) -> Result<Vec<(String, PartialResult)>, MergeError> {
    if read.is_empty() && broken.is_empty() {
        return Err(MergeError::Empty);
    }
    if !broken.is_empty() {
        return Err(MergeError::Malformed(broken));
    }
    let foreign: Vec<String> = read
        .iter()
        .filter_map(|o| match &o.what {
            Kind::Foreign(why) => Some(why.clone()),
            _ => None,
        })
        .collect();
    if !foreign.is_empty() {
        return Err(MergeError::Malformed(foreign));
    }
    // Runs are compared before the fields are read, so that a result of another run is called
    // that even when this program cannot read it (another version, an unknown engine).
    for (i, (field, _)) in RUN_FIELDS.iter().enumerate() {
        let items: Vec<(String, &str)> = read
            .iter()
            .map(|o| (o.name.clone(), o.run.fields()[i]))
            .collect();
        same(&items, field, |v| v.to_string())?;
    }
    // Versions 2 and 3 share the partition, so shards of one run written by either merge.
    let readable = |v: &str| FORMAT_VERSIONS_READ.iter().any(|r| r.to_string() == v);
    let mut unreadable: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for o in read.iter().filter(|o| !readable(&o.version)) {
        unreadable.entry(&o.version).or_default().push(&o.name);
    }
    if !unreadable.is_empty() {
        let versions: Vec<String> = FORMAT_VERSIONS_READ.iter().map(u32::to_string).collect();
        return Err(MergeError::Malformed(
            unreadable
                .into_iter()
                .map(|(version, names)| {
                    format!(
                        "{} {} format version {version}; this nqueens reads versions {}",
                        list(&names),
                        if names.len() == 1 { "has" } else { "have" },
                        crate::util::text::and_list(&versions)
                    )
                })
                .collect(),
        ));
    }
    let mut damaged = Vec::new();
    let mut results = Vec::new();
    for o in read {
        match o.what {
            Kind::Result(r) => results.push((o.name, *r)),
            Kind::Damaged(why) | Kind::Foreign(why) => damaged.push(why),
        }
    }
    if !damaged.is_empty() {
        return Err(MergeError::Malformed(damaged));
    }
    Ok(results)
}

/// The machines every shard must be counted on, and how they are told apart.
#[derive(Debug, Clone, Copy)]
struct Hosts {
    /// Distinct machines per shard.
    quorum: u32,
    /// Whether copies with no machine identity count by their host names.
    by_name: bool,
}

/// The hosts every shard must be counted on: as asked, or by default 1 where the table checks
/// the total and none (an error) where it cannot.
fn quorum_for(quorum: Quorum, n: u32) -> Result<Hosts, MergeError> {
    let hosts = |quorum: u32, by_name| Hosts {
        quorum: quorum.max(1),
        by_name,
    };
    match quorum {
        Quorum::Hosts(q) => Ok(hosts(q, false)),
        Quorum::HostsByName(q) => Ok(hosts(q, true)),
        Quorum::Default if crate::truth::known::known(n).is_some() => Ok(hosts(1, false)),
        Quorum::Default => Err(MergeError::NoQuorum { n }),
    }
}

/// The results by the shard each one is, before anything is built for its K.
fn by_shard(results: &[(String, PartialResult)]) -> Result<ByShard<'_>, MergeError> {
    let mut foreign = Vec::new();
    let mut by_shard: BTreeMap<u32, Vec<(&str, &PartialResult)>> = BTreeMap::new();
    for (name, r) in results {
        match r.shard() {
            Ok(shard) => by_shard.entry(shard.index()).or_default().push((name, r)),
            Err(e) => foreign.push(format!("{name}: {e}")),
        }
    }
    if !foreign.is_empty() {
        return Err(MergeError::Foreign(foreign));
    }

    Ok(by_shard)
}

/// The warnings for copies of a shard with one total (counted once); an error for copies with
/// different totals.
fn copies(by_shard: &ByShard, quorum: u32, shards: u32) -> Result<Vec<String>, MergeError> {
    let mut warnings = Vec::new();
    let mut conflicts = Vec::new();
    for (index, copies) in by_shard {
        if copies.len() < 2 {
            continue;
        }
        let names = copies.iter().map(|(name, _)| *name).collect::<Vec<_>>();
        if copies.iter().all(|(_, r)| r.total == copies[0].1.total) {
            if quorum > 1 {
                continue;
            }
            warnings.push(format!(
                "shard {index}/{} is given {} times with the same total ({}); counted once",
                shards,
                copies.len(),
                list(&names)
            ));
        } else {
            let totals: Vec<String> = copies
                .iter()
                .map(|(name, r)| format!("{} in {name}", r.total))
                .collect();
            conflicts.push(format!(
                "shard {index}/{} has different totals: {}",
                shards,
                list(&totals)
            ));
        }
    }
    if !conflicts.is_empty() {
        return Err(MergeError::Conflict(conflicts));
    }
    Ok(warnings)
}

/// An error unless every shard was counted on `quorum` different machines: copies whose names,
/// machine ids or boot ids are equal are one machine ([`host::machines`]).
fn on_enough_hosts(
    by_shard: &ByShard,
    Hosts { quorum, by_name }: Hosts,
    shards: u32,
) -> Result<(), MergeError> {
    if quorum <= 1 {
        // One copy of each shard: whose machine counted it does not matter.
        return Ok(());
    }
    let short: Vec<String> = by_shard
        .iter()
        .filter_map(|(index, copies)| {
            let machines = host::machines(
                copies
                    .iter()
                    .map(|(_, r)| (r.host.as_str(), r.machine.as_deref())),
                by_name,
            );
            let hosts: std::collections::BTreeSet<String> =
                copies.iter().map(|(_, r)| excerpt(&r.host)).collect();
            (machines < quorum as usize).then(|| {
                let hosts: Vec<String> = hosts.into_iter().collect();
                format!(
                    "shard {index}/{} on {} (named {})",
                    shards,
                    plural(machines, "machine"),
                    list(&hosts)
                )
            })
        })
        .collect();
    if !short.is_empty() {
        return Err(MergeError::Quorum { quorum, short });
    }
    Ok(())
}

/// An error unless every shard of the K is there.
fn complete(
    by_shard: &ByShard,
    results: &[(String, PartialResult)],
    shards: u32,
) -> Result<(), MergeError> {
    let missing: Vec<u32> = Shard::all(shards)
        .map(Shard::index)
        .filter(|i| !by_shard.contains_key(i))
        .collect();
    if !missing.is_empty() {
        let read: Vec<String> = results
            .iter()
            .map(|(name, r)| format!("{name} (shard {})", r.shard))
            .collect();
        return Err(MergeError::Missing {
            missing,
            shards,
            read: list(&read),
        });
    }

    Ok(())
}

/// The plan the results were counted by, rebuilt, with every result held to it and to its
/// shard's subproblems.
fn held_to_plan(results: &[(String, PartialResult)], threads: usize) -> Result<Plan, MergeError> {
    let first = &results[0].1;
    let mut foreign = Vec::new();
    let options = Options::default()
        .with_threads(threads)
        .with_engine(Some(first.engine))
        .with_split_depth(Some(first.split_depth));
    let plan_error = |source| MergeError::Plan {
        input: results[0].0.clone(),
        source,
    };
    // The files agree on their fingerprint (RUN_FIELDS), which says their decomposition.
    let plan = crate::plan::choose::outline_of(
        first.n,
        &options,
        &first.plan,
        first.decomposition.as_deref(),
    )
    .map_err(plan_error)?;
    let partition = Partition::new(&plan, first.shards, threads).map_err(plan_error)?;
    let summaries = partition.summaries();
    let fingerprint = format!("{:08x}", plan.fingerprint());
    for (name, r) in results {
        if plan.engine() != r.engine
            || plan.split_depth() != r.split_depth
            || plan.len() != r.plan_subproblems
            || fingerprint != r.plan
        {
            foreign.push(format!(
                "{name}: its plan ({} engine, depth {}, {} subproblems, fingerprint {}) is not \
                 this program's ({} engine, depth {}, {} subproblems, fingerprint {fingerprint}); \
                 it was written by nqueens {}",
                r.engine,
                r.split_depth,
                r.plan_subproblems,
                excerpt(&r.plan),
                plan.engine(),
                plan.split_depth(),
                plan.len(),
                excerpt(&r.program_version)
            ));
            continue;
        }
        let (ids, digest) = &summaries[r.shard as usize - 1];
        if (r.subproblems, &r.ids_digest) != (*ids, digest) {
            foreign.push(format!(
                "{name}: shard {}/{} has {} {} with ids {}, but this program gives it {ids} \
                 with ids {digest}; it was written by nqueens {}",
                r.shard,
                r.shards,
                r.subproblems,
                plan.pieces_are(),
                excerpt(&r.ids_digest),
                excerpt(&r.program_version)
            ));
        }
    }
    if !foreign.is_empty() {
        return Err(MergeError::Foreign(foreign));
    }

    Ok(plan)
}

/// The merged count: one copy of each shard, their totals and times summed.
fn fold(by_shard: &ByShard, plan: &Plan, warnings: Vec<String>) -> Result<Merged, MergeError> {
    let shards: Vec<PartialResult> = by_shard.values().map(|c| c[0].1.clone()).collect();
    let total = shards
        .iter()
        .try_fold(0u128, |sum, r| sum.checked_add(r.total))
        .ok_or_else(|| {
            MergeError::Malformed(vec![
                "the shards' totals add up to more than 2^128: they cannot be counts".to_string(),
            ])
        })?;
    // Each time is finite and not negative (checked when read); their sum may still be absurd.
    let seconds: f64 = shards.iter().map(|r| r.elapsed_seconds).sum();
    let counts = Counts::of(
        plan,
        total,
        None,
        shards.iter().map(|r| r.threads).max().unwrap_or(0),
        Duration::try_from_secs_f64(seconds).unwrap_or(Duration::MAX),
    );
    Ok(Merged {
        counts,
        shards,
        warnings,
        plan: format!("{:08x}", plan.fingerprint()),
        decomposition: plan.decomposition(),
    })
}

/// Refuses when `key` differs between the named items, naming which have which value.
fn same<T, K: Ord + Display>(
    items: &[(String, T)],
    field: &'static str,
    key: impl Fn(&T) -> K,
) -> Result<(), MergeError> {
    let mut groups: BTreeMap<K, Vec<&str>> = BTreeMap::new();
    for (name, item) in items {
        groups.entry(key(item)).or_default().push(name);
    }
    if groups.len() <= 1 {
        return Ok(());
    }
    Err(MergeError::Mixed {
        field,
        groups: groups
            .into_iter()
            .map(|(value, names)| format!("{value} in {}", list(&names)))
            .collect(),
    })
}

#[cfg(test)]
mod tests;
