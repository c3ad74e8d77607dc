//! What a merge reads: each object of its inputs, the run it names (field by field, as text,
//! so that a file this program cannot read is still told apart by its run), and what it turned
//! out to be: a result, damaged, or not a shard result at all.

use serde_json::Value;

use crate::cluster::partial::SHARD_FORMAT;
use crate::cluster::PartialResult;
use crate::util::text::excerpt;

/// The longest wall time a shard may report: three centuries, far past any run, short of what
/// only a damaged or forged file holds.
const MAX_SECONDS: f64 = 1e10;
/// The most CPU time a shard may report: a thousand threads for three centuries.
const MAX_CPU_SECONDS: f64 = 1e13;
/// The most threads a shard may report.
const MAX_THREADS: usize = 1 << 20;

/// The fields runs are compared by, before anything else is read: what each is called in
/// messages, and its key in the file.
pub(super) const RUN_FIELDS: [(&str, &str); 6] = [
    ("n", "n"),
    ("engine", "engine"),
    ("number of shards K", "shards"),
    ("split depth", "split_depth"),
    ("plan size", "plan_subproblems"),
    // Plans of one size that count differently (an even board by its quarter turn or not, in
    // builds before and after it): their shards' totals do not add up.
    ("plan fingerprint", "plan"),
];

/// The run an object names: its [`RUN_FIELDS`], as text (escaped and cut: they are quoted in
/// messages), so that an object this program cannot read is still told apart by its run.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Run {
    pub(super) n: String,
    pub(super) engine: String,
    pub(super) shards: String,
    pub(super) split_depth: String,
    pub(super) plan_subproblems: String,
    pub(super) plan: String,
}

impl Run {
    /// The run `v` names.
    pub(super) fn of(v: &Value) -> Run {
        let field = |key: &str| {
            excerpt(&match &v[key] {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            })
        };
        let [n, engine, shards, split_depth, plan_subproblems, plan] =
            RUN_FIELDS.map(|(_, key)| field(key));
        Run {
            n,
            engine,
            shards,
            split_depth,
            plan_subproblems,
            plan,
        }
    }

    /// Its fields in the order of [`RUN_FIELDS`].
    pub(super) fn fields(&self) -> [&str; 6] {
        [
            &self.n,
            &self.engine,
            &self.shards,
            &self.split_depth,
            &self.plan_subproblems,
            &self.plan,
        ]
    }

    /// The campaign it is: its plan and K (one board's campaigns differ in these alone).
    pub(super) fn campaign(&self) -> (&str, &str) {
        (&self.plan, &self.shards)
    }
}

/// One object of an input.
#[derive(Debug, Clone)]
pub(super) struct Object {
    pub(super) name: String,
    pub(super) run: Run,
    /// Its `format_version`, as text (escaped and cut).
    pub(super) version: String,
    pub(super) what: Kind,
}

/// What an object turned out to be.
#[derive(Debug, Clone)]
pub(super) enum Kind {
    /// A partial result, checksum and time checked.
    Result(Box<PartialResult>),
    /// Not an nqueens shard result at all (no `format`).
    Foreign(String),
    /// A shard result that cannot be used (a missing field, a wrong checksum).
    Damaged(String),
}

/// How a message names the campaign of `group` (results of one plan and K): its decomposition,
/// where it has one, its K and its plan.
pub(super) fn campaign_name(group: &[Object]) -> String {
    let first = &group[0];
    let decomposition = group.iter().find_map(|o| match &o.what {
        Kind::Result(r) => r.decomposition.clone(),
        _ => None,
    });
    format!(
        "the campaign{} of K = {} (plan {})",
        decomposition.map_or(String::new(), |d| format!(" by the {d} decomposition")),
        first.run.shards,
        first.run.plan
    )
}

impl Object {
    /// The object `v`, named `name`.
    pub(super) fn of(name: String, v: Value) -> Object {
        let run = Run::of(&v);
        let version = excerpt(&v["format_version"].to_string());
        let what = if v.get("format").and_then(Value::as_str) != Some(SHARD_FORMAT) {
            Kind::Foreign(format!(
                "{name} is not an nqueens shard result (no \"format\": \"{SHARD_FORMAT}\")"
            ))
        } else {
            match serde_json::from_value::<PartialResult>(v) {
                Ok(r) if r.checksum != r.expected_checksum() => Kind::Damaged(format!(
                    "{name}: its checksum does not match its contents ({} recorded, {} \
                     computed): the file was changed or damaged after its shard wrote it",
                    excerpt(&r.checksum),
                    r.expected_checksum()
                )),
                Ok(r) if !(0.0..=MAX_SECONDS).contains(&r.elapsed_seconds) => {
                    Kind::Damaged(format!(
                        "{name}: elapsed_seconds {} is not a plausible time (0 to {MAX_SECONDS:e})",
                        r.elapsed_seconds
                    ))
                }
                Ok(r)
                    if r.cpu_seconds
                        .is_some_and(|c| !(0.0..=MAX_CPU_SECONDS).contains(&c)) =>
                {
                    Kind::Damaged(format!(
                        "{name}: cpu_seconds {} is not a plausible time (0 to {MAX_CPU_SECONDS:e})",
                        r.cpu_seconds.unwrap_or_default()
                    ))
                }
                Ok(r) if !(1..=MAX_THREADS).contains(&r.threads) => Kind::Damaged(format!(
                    "{name}: threads {} is not a plausible number of threads (1 to {MAX_THREADS})",
                    r.threads
                )),
                Ok(r) => Kind::Result(Box::new(r)),
                Err(e) => Kind::Damaged(format!(
                    "{name} is not a complete shard result: {}",
                    excerpt(&e.to_string())
                )),
            }
        };
        Object {
            name,
            run,
            version,
            what,
        }
    }
}
