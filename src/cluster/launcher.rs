//! Launcher detection: which shard a job array (Slurm, Grid Engine, LSF, PBS, AWS Batch), a
//! Kubernetes Indexed Job, Open MPI, MPICH (PMI) or srun says this process is (`--shard auto`).

use std::fmt;

use super::shard::{Shard, ShardError};

/// How one launcher says which shard a process is: the variable whose presence says it started
/// the process, and how the shard follows from it ([`Shape`]). [`LAUNCHERS`] lists them in the
/// order they are looked for.
struct Entry {
    launcher: Launcher,
    /// The variable that holds the task's index (or rank).
    index: &'static str,
    /// A value of `index` that means the job is no array: the launcher set it anyway.
    no_array: Option<&'static str>,
    shape: Shape,
}

/// How a launcher's index gives the shard.
enum Shape {
    /// A Slurm job array: `_MIN`, `_STEP` and `_MAX` or `_COUNT` beside the index.
    SlurmArray,
    /// An array `first-last:step`: each bound a variable, or 1 where the launcher starts there,
    /// and the last one `NQUEENS_SHARDS` where the launcher does not say.
    Stepped {
        first: Bound,
        last: Bound,
        step: Option<&'static str>,
    },
    /// A rank from 0 of `size`.
    FromZero {
        size: Bound,
        /// Only within a job step (`srun`'s tasks): a batch script of K tasks runs once, as
        /// task 0, and counting shard 1 of K there would leave the others uncounted.
        in_a_step: bool,
    },
}

/// Where a bound of the array comes from.
#[derive(Clone, Copy)]
enum Bound {
    /// Always 1.
    One,
    /// A variable of the launcher's.
    Var(&'static str),
    /// `NQUEENS_SHARDS`, where the launcher does not say.
    Given,
}

/// The launchers, in the order they are looked for: job arrays first (a task of an array is one
/// shard, whatever runs inside it), then MPI before `srun`, because `mpirun` inside a Slurm job
/// inherits the job's `SLURM_*` variables.
const LAUNCHERS: [Entry; 9] = [
    Entry {
        launcher: Launcher::SlurmArray,
        index: "SLURM_ARRAY_TASK_ID",
        no_array: None,
        shape: Shape::SlurmArray,
    },
    Entry {
        launcher: Launcher::GridEngine,
        index: "SGE_TASK_ID",
        no_array: Some("undefined"),
        shape: Shape::Stepped {
            first: Bound::Var("SGE_TASK_FIRST"),
            last: Bound::Var("SGE_TASK_LAST"),
            step: Some("SGE_TASK_STEPSIZE"),
        },
    },
    Entry {
        launcher: Launcher::Lsf,
        index: "LSB_JOBINDEX",
        no_array: Some("0"),
        shape: Shape::Stepped {
            first: Bound::One,
            last: Bound::Var("LSB_JOBINDEX_END"),
            step: Some("LSB_JOBINDEX_STEP"),
        },
    },
    Entry {
        launcher: Launcher::Pbs,
        index: "PBS_ARRAY_INDEX",
        no_array: None,
        shape: Shape::Stepped {
            first: Bound::One,
            last: Bound::Given,
            step: None,
        },
    },
    Entry {
        launcher: Launcher::AwsBatch,
        index: "AWS_BATCH_JOB_ARRAY_INDEX",
        no_array: None,
        shape: Shape::FromZero {
            size: Bound::Var("AWS_BATCH_JOB_ARRAY_SIZE"),
            in_a_step: false,
        },
    },
    Entry {
        launcher: Launcher::Kubernetes,
        index: "JOB_COMPLETION_INDEX",
        no_array: None,
        shape: Shape::FromZero {
            size: Bound::Given,
            in_a_step: false,
        },
    },
    Entry {
        launcher: Launcher::OpenMpi,
        index: "OMPI_COMM_WORLD_RANK",
        no_array: None,
        shape: Shape::FromZero {
            size: Bound::Var("OMPI_COMM_WORLD_SIZE"),
            in_a_step: false,
        },
    },
    Entry {
        launcher: Launcher::Pmi,
        index: "PMI_RANK",
        no_array: None,
        shape: Shape::FromZero {
            size: Bound::Var("PMI_SIZE"),
            in_a_step: false,
        },
    },
    Entry {
        launcher: Launcher::Srun,
        index: "SLURM_PROCID",
        no_array: None,
        shape: Shape::FromZero {
            size: Bound::Var("SLURM_NTASKS"),
            in_a_step: true,
        },
    },
];

impl Shard {
    /// The shard the launcher that started this process says it is, read through `var`
    /// (`|name| std::env::var(name).ok()` for the real environment), from the first launcher of
    /// `LAUNCHERS` whose variables are set:
    /// - a Slurm job array: `SLURM_ARRAY_TASK_ID` with `SLURM_ARRAY_TASK_MIN`/`_MAX`/`_STEP` or
    ///   `_COUNT` (the array may start at 0 or 1 and have a step);
    /// - a Grid Engine array (`qsub -t`): `SGE_TASK_ID` with `SGE_TASK_FIRST`/`_LAST`/`_STEPSIZE`
    ///   (a job that is no array has `SGE_TASK_ID=undefined`);
    /// - an LSF array (`bsub -J "name[1-K]"`): `LSB_JOBINDEX` with `LSB_JOBINDEX_END` and
    ///   `LSB_JOBINDEX_STEP`; LSF gives no first index, so the array must start at 1 (a job that
    ///   is no array has `LSB_JOBINDEX=0`);
    /// - a PBS Pro or OpenPBS array (`qsub -J 1-K`): `PBS_ARRAY_INDEX`, from 1, and K from
    ///   `NQUEENS_SHARDS` (PBS does not give the array's size);
    /// - an AWS Batch array: `AWS_BATCH_JOB_ARRAY_INDEX`, from 0, and `AWS_BATCH_JOB_ARRAY_SIZE`;
    /// - a Kubernetes Indexed Job: `JOB_COMPLETION_INDEX`, from 0, and K from `NQUEENS_SHARDS`
    ///   (the job's `completions`, which the pod is not told: its manifest sets it);
    /// - Open MPI (`OMPI_COMM_WORLD_RANK`/`_SIZE`), MPICH and other PMI launchers
    ///   (`PMI_RANK`/`PMI_SIZE`), then `srun` (`SLURM_PROCID`/`SLURM_NTASKS`).
    ///
    /// Adding a launcher is an entry of `LAUNCHERS` (this module's table) and a test.
    pub fn from_env(var: impl Fn(&str) -> Option<String>) -> Result<(Shard, Launcher), ShardError> {
        let number = |name: &'static str| -> Result<Option<i64>, ShardError> {
            var(name)
                .map(|value| {
                    value
                        .trim()
                        .parse::<i64>()
                        .map_err(|_| ShardError::Variable {
                            name,
                            value,
                            problem: "is not a whole number",
                        })
                })
                .transpose()
        };
        for entry in &LAUNCHERS {
            if let Some(found) = entry.read(&var, &number)? {
                return Ok((found, entry.launcher));
            }
        }
        Err(ShardError::NoLauncher)
    }
}

impl Entry {
    /// The shard this launcher says the process is; `None` where it did not start it.
    fn read(
        &self,
        var: &impl Fn(&str) -> Option<String>,
        number: &impl Fn(&'static str) -> Result<Option<i64>, ShardError>,
    ) -> Result<Option<Shard>, ShardError> {
        let launcher = self.launcher;
        if self
            .no_array
            .is_some_and(|no| var(self.index).is_some_and(|v| v.trim() == no))
        {
            return Ok(None);
        }
        // A bound of the array: its variable, which must be set beside the index.
        let bound = |bound: Bound, index: i64| -> Result<i64, ShardError> {
            match bound {
                Bound::One => Ok(1),
                Bound::Var(name) => number(name)?.ok_or(ShardError::Missing {
                    set: self.index,
                    missing: name,
                }),
                Bound::Given => number("NQUEENS_SHARDS")?.ok_or(ShardError::NoCount {
                    launcher: launcher.name(),
                    variable: self.index,
                    index,
                }),
            }
        };
        let index = number(self.index)?;
        let shard = match (&self.shape, index) {
            (Shape::SlurmArray, Some(id)) => slurm_array(id, number)?,
            (Shape::Stepped { first, last, step }, Some(index)) => {
                let (first, last) = (bound(*first, index)?, bound(*last, index)?);
                let step = match step {
                    Some(name) => number(name)?.unwrap_or(1),
                    None => 1,
                };
                stepped(launcher, index, first, last, step)?
            }
            (Shape::FromZero { size, in_a_step }, Some(rank)) => {
                let size = bound(*size, rank)?;
                if *in_a_step
                    && size > 1
                    && var("SLURM_STEP_ID").is_none()
                    && var("SLURM_STEPID").is_none()
                {
                    return Err(ShardError::BatchScript { tasks: size });
                }
                Shard::checked(rank.saturating_add(1), size).map_err(|_| ShardError::Rank {
                    launcher: launcher.name(),
                    rank,
                    size,
                })?
            }
            // A size without its rank is a launcher half set: said, not passed over.
            (
                Shape::FromZero {
                    size: Bound::Var(size),
                    ..
                },
                None,
            ) if var(size).is_some() => {
                number(size)?;
                return Err(ShardError::Missing {
                    set: size,
                    missing: self.index,
                });
            }
            (_, None) => return Ok(None),
        };
        Ok(Some(shard))
    }
}

/// Position of `id` in a Slurm job array `MIN-MAX:STEP` (or `_COUNT` tasks from `MIN`).
fn slurm_array(
    id: i64,
    number: impl Fn(&'static str) -> Result<Option<i64>, ShardError>,
) -> Result<Shard, ShardError> {
    let min = number("SLURM_ARRAY_TASK_MIN")?.ok_or(ShardError::Missing {
        set: "SLURM_ARRAY_TASK_ID",
        missing: "SLURM_ARRAY_TASK_MIN",
    })?;
    let step = number("SLURM_ARRAY_TASK_STEP")?.unwrap_or(1);
    let count = match (
        number("SLURM_ARRAY_TASK_MAX")?,
        number("SLURM_ARRAY_TASK_COUNT")?,
    ) {
        (Some(max), Some(count)) if step > 0 && (max - min) / step + 1 != count => {
            // A list such as --array=1,4,9: the task's position cannot be known.
            return Err(ShardError::Array {
                id,
                min,
                step,
                count: Some(count),
            });
        }
        (Some(max), _) if step > 0 => (max - min) / step + 1,
        (None, Some(count)) => count,
        (None, None) => {
            return Err(ShardError::Missing {
                set: "SLURM_ARRAY_TASK_ID",
                missing: "SLURM_ARRAY_TASK_MAX or SLURM_ARRAY_TASK_COUNT",
            })
        }
        _ => {
            return Err(ShardError::Array {
                id,
                min,
                step,
                count: None,
            })
        }
    };
    let offset = id - min;
    if step <= 0 || offset < 0 || offset % step != 0 {
        return Err(ShardError::Array {
            id,
            min,
            step,
            count: Some(count),
        });
    }
    Shard::checked(offset / step + 1, count).map_err(|_| ShardError::Array {
        id,
        min,
        step,
        count: Some(count),
    })
}

/// Shard `(index - first) / step + 1` of an array `first-last:step` of `launcher`: its position,
/// so that an array from 0, from 1 or with a step gives shards 1 to K alike.
fn stepped(
    launcher: Launcher,
    index: i64,
    first: i64,
    last: i64,
    step: i64,
) -> Result<Shard, ShardError> {
    let out_of_range = ShardError::Stepped {
        launcher: launcher.name(),
        id: index,
        first,
        last,
        step,
    };
    if step <= 0 || last < first || index < first || index > last || (index - first) % step != 0 {
        return Err(out_of_range);
    }
    Shard::checked((index - first) / step + 1, (last - first) / step + 1).map_err(|_| out_of_range)
}

/// Who started this process, as [`Shard::from_env`] found it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Launcher {
    /// A Slurm job array (`sbatch --array`).
    SlurmArray,
    /// A Grid Engine array job (`qsub -t`).
    GridEngine,
    /// An LSF job array (`bsub -J "name[1-K]"`).
    Lsf,
    /// A PBS Pro or OpenPBS array job (`qsub -J`).
    Pbs,
    /// An AWS Batch array job.
    AwsBatch,
    /// A Kubernetes Indexed Job.
    Kubernetes,
    /// Open MPI's `mpirun`.
    OpenMpi,
    /// MPICH's `mpiexec` or another PMI launcher.
    Pmi,
    /// Slurm's `srun`.
    Srun,
}

impl Launcher {
    /// The launcher's name in messages.
    pub fn name(self) -> &'static str {
        match self {
            Launcher::SlurmArray => "the Slurm job array",
            Launcher::GridEngine => "the Grid Engine array",
            Launcher::Lsf => "the LSF array",
            Launcher::Pbs => "the PBS array",
            Launcher::AwsBatch => "the AWS Batch array",
            Launcher::Kubernetes => "the Kubernetes Indexed Job",
            Launcher::OpenMpi => "Open MPI",
            Launcher::Pmi => "PMI (MPICH)",
            Launcher::Srun => "srun",
        }
    }
}

impl fmt::Display for Launcher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::shard::tests::shard;
    use std::collections::HashMap;

    fn env<'a>(vars: &'a [(&str, &str)]) -> impl Fn(&str) -> Option<String> + 'a {
        let map: HashMap<&str, &str> = vars.iter().copied().collect();
        move |name| map.get(name).map(|v| v.to_string())
    }

    /// The table's order is the precedence: with every launcher's variables set, the first
    /// entry's launcher is found, and without it the next one's, and so on down the table.
    #[test]
    fn the_launchers_are_looked_for_in_the_table_s_order() {
        let sets: [(Launcher, &[(&str, &str)]); 9] = [
            (
                Launcher::SlurmArray,
                &[
                    ("SLURM_ARRAY_TASK_ID", "2"),
                    ("SLURM_ARRAY_TASK_MIN", "1"),
                    ("SLURM_ARRAY_TASK_MAX", "4"),
                ],
            ),
            (
                Launcher::GridEngine,
                &[
                    ("SGE_TASK_ID", "2"),
                    ("SGE_TASK_FIRST", "1"),
                    ("SGE_TASK_LAST", "4"),
                ],
            ),
            (
                Launcher::Lsf,
                &[("LSB_JOBINDEX", "2"), ("LSB_JOBINDEX_END", "4")],
            ),
            (
                Launcher::Pbs,
                &[("PBS_ARRAY_INDEX", "2"), ("NQUEENS_SHARDS", "4")],
            ),
            (
                Launcher::AwsBatch,
                &[
                    ("AWS_BATCH_JOB_ARRAY_INDEX", "1"),
                    ("AWS_BATCH_JOB_ARRAY_SIZE", "4"),
                ],
            ),
            (Launcher::Kubernetes, &[("JOB_COMPLETION_INDEX", "1")]),
            (
                Launcher::OpenMpi,
                &[("OMPI_COMM_WORLD_RANK", "1"), ("OMPI_COMM_WORLD_SIZE", "4")],
            ),
            (Launcher::Pmi, &[("PMI_RANK", "1"), ("PMI_SIZE", "4")]),
            (
                Launcher::Srun,
                &[
                    ("SLURM_PROCID", "1"),
                    ("SLURM_NTASKS", "4"),
                    ("SLURM_STEP_ID", "0"),
                ],
            ),
        ];
        for (i, (launcher, _)) in sets.iter().enumerate() {
            assert_eq!(LAUNCHERS[i].launcher, *launcher);
            let mut vars: Vec<(&str, &str)> = sets[i..].iter().flat_map(|s| s.1.to_vec()).collect();
            vars.push(("NQUEENS_SHARDS", "4"));
            assert_eq!(
                Shard::from_env(env(&vars)),
                Ok((shard(2, 4), *launcher)),
                "{vars:?}"
            );
        }
    }

    #[test]
    fn slurm_job_arrays_from_0_or_1_and_with_a_step() {
        let from = |vars: &[(&str, &str)]| Shard::from_env(env(vars));
        let array = |id, min, max| {
            from(&[
                ("SLURM_ARRAY_TASK_ID", id),
                ("SLURM_ARRAY_TASK_MIN", min),
                ("SLURM_ARRAY_TASK_MAX", max),
                ("SLURM_PROCID", "0"),
                ("SLURM_NTASKS", "1"),
            ])
        };
        assert_eq!(
            array("1", "1", "8"),
            Ok((shard(1, 8), Launcher::SlurmArray))
        );
        assert_eq!(
            array("0", "0", "7"),
            Ok((shard(1, 8), Launcher::SlurmArray))
        );
        assert_eq!(
            array("7", "0", "7"),
            Ok((shard(8, 8), Launcher::SlurmArray))
        );
        let stepped = from(&[
            ("SLURM_ARRAY_TASK_ID", "8"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
            ("SLURM_ARRAY_TASK_MAX", "12"),
            ("SLURM_ARRAY_TASK_STEP", "4"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ]);
        assert_eq!(stepped, Ok((shard(3, 4), Launcher::SlurmArray)));
        let counted = from(&[
            ("SLURM_ARRAY_TASK_ID", "5"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_COUNT", "16"),
        ]);
        assert_eq!(counted, Ok((shard(5, 16), Launcher::SlurmArray)));
        // --array=1,4,9: no position can be known.
        let listed = from(&[
            ("SLURM_ARRAY_TASK_ID", "4"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_MAX", "9"),
            ("SLURM_ARRAY_TASK_COUNT", "3"),
        ]);
        assert!(listed.unwrap_err().to_string().contains("--array=1-K"));
        let no_min = from(&[("SLURM_ARRAY_TASK_ID", "4")]).unwrap_err();
        assert!(no_min.to_string().contains("SLURM_ARRAY_TASK_MIN is not"));
        let bad = array("x", "1", "8").unwrap_err().to_string();
        assert!(bad.contains("SLURM_ARRAY_TASK_ID=\"x\" is not a whole number"));
    }

    #[test]
    fn mpi_and_srun_ranks_count_from_zero() {
        let from = |vars: &[(&str, &str)]| Shard::from_env(env(vars));
        assert_eq!(
            from(&[("OMPI_COMM_WORLD_RANK", "0"), ("OMPI_COMM_WORLD_SIZE", "4")]),
            Ok((shard(1, 4), Launcher::OpenMpi))
        );
        assert_eq!(
            from(&[("PMI_RANK", "3"), ("PMI_SIZE", "4")]),
            Ok((shard(4, 4), Launcher::Pmi))
        );
        assert_eq!(
            from(&[
                ("SLURM_PROCID", "2"),
                ("SLURM_NTASKS", "3"),
                ("SLURM_STEP_ID", "0")
            ]),
            Ok((shard(3, 3), Launcher::Srun))
        );
        // `sbatch -n 3 --wrap 'nqueens … --shard auto'`: the batch script, not srun's tasks.
        let batch = from(&[("SLURM_PROCID", "0"), ("SLURM_NTASKS", "3")]).unwrap_err();
        assert_eq!(batch, ShardError::BatchScript { tasks: 3 });
        assert!(batch
            .to_string()
            .contains("start one task per shard with srun"));
        // A job of one task needs no srun.
        assert_eq!(
            from(&[("SLURM_PROCID", "0"), ("SLURM_NTASKS", "1")]),
            Ok((shard(1, 1), Launcher::Srun))
        );
        // mpirun inside a Slurm allocation: the MPI rank, not the inherited SLURM_PROCID.
        assert_eq!(
            from(&[
                ("SLURM_PROCID", "0"),
                ("SLURM_NTASKS", "1"),
                ("OMPI_COMM_WORLD_RANK", "5"),
                ("OMPI_COMM_WORLD_SIZE", "6"),
            ]),
            Ok((shard(6, 6), Launcher::OpenMpi))
        );
        let err = |vars: &[(&str, &str)]| from(vars).unwrap_err().to_string();
        assert!(err(&[("PMI_RANK", "1")]).contains("PMI_RANK is set but PMI_SIZE is not"));
        assert!(err(&[("SLURM_NTASKS", "4")]).contains("SLURM_NTASKS is set but SLURM_PROCID"));
        assert!(err(&[("PMI_RANK", "4"), ("PMI_SIZE", "4")]).contains("rank 4 of 4"));
        assert!(err(&[]).contains("no launcher found"));
    }

    /// Each scheduler's array by its own variables, with its own base and step: no shard
    /// dropped or counted twice between 0- and 1-based indices.
    #[test]
    fn every_scheduler_s_array_gives_shards_1_to_k() {
        let from = |vars: &[(&str, &str)]| Shard::from_env(env(vars));
        // Grid Engine: qsub -t 1-8, qsub -t 0-14:2.
        let sge = |id, first, last, step| {
            from(&[
                ("SGE_TASK_ID", id),
                ("SGE_TASK_FIRST", first),
                ("SGE_TASK_LAST", last),
                ("SGE_TASK_STEPSIZE", step),
            ])
        };
        assert_eq!(
            sge("1", "1", "8", "1"),
            Ok((shard(1, 8), Launcher::GridEngine))
        );
        assert_eq!(
            sge("8", "1", "8", "1"),
            Ok((shard(8, 8), Launcher::GridEngine))
        );
        assert_eq!(
            sge("0", "0", "14", "2"),
            Ok((shard(1, 8), Launcher::GridEngine))
        );
        assert_eq!(
            sge("14", "0", "14", "2"),
            Ok((shard(8, 8), Launcher::GridEngine))
        );
        let off_step = sge("4", "1", "8", "2").unwrap_err().to_string();
        assert!(
            off_step.contains("task 4 is not in the array 1-8:2"),
            "{off_step}"
        );
        let no_last = from(&[("SGE_TASK_ID", "2"), ("SGE_TASK_FIRST", "1")]).unwrap_err();
        assert!(no_last
            .to_string()
            .contains("SGE_TASK_ID is set but SGE_TASK_LAST is not"));
        // LSF: bsub -J "q[1-8]" and "q[1-15:2]".
        let lsf = |id, end, step| {
            from(&[
                ("LSB_JOBINDEX", id),
                ("LSB_JOBINDEX_END", end),
                ("LSB_JOBINDEX_STEP", step),
            ])
        };
        assert_eq!(lsf("1", "8", "1"), Ok((shard(1, 8), Launcher::Lsf)));
        assert_eq!(lsf("15", "15", "2"), Ok((shard(8, 8), Launcher::Lsf)));
        // PBS: qsub -J 1-8, K from NQUEENS_SHARDS.
        assert_eq!(
            from(&[("PBS_ARRAY_INDEX", "8"), ("NQUEENS_SHARDS", "8")]),
            Ok((shard(8, 8), Launcher::Pbs))
        );
        let pbs = from(&[("PBS_ARRAY_INDEX", "3")]).unwrap_err().to_string();
        assert!(
            pbs.contains("PBS_ARRAY_INDEX") && pbs.contains("set NQUEENS_SHARDS to K"),
            "{pbs}"
        );
        let too_far = from(&[("PBS_ARRAY_INDEX", "9"), ("NQUEENS_SHARDS", "8")]).unwrap_err();
        assert!(too_far
            .to_string()
            .contains("task 9 is not in the array 1-8:1"));
        // AWS Batch, from 0.
        assert_eq!(
            from(&[
                ("AWS_BATCH_JOB_ARRAY_INDEX", "0"),
                ("AWS_BATCH_JOB_ARRAY_SIZE", "8")
            ]),
            Ok((shard(1, 8), Launcher::AwsBatch))
        );
        assert_eq!(
            from(&[
                ("AWS_BATCH_JOB_ARRAY_INDEX", "7"),
                ("AWS_BATCH_JOB_ARRAY_SIZE", "8")
            ]),
            Ok((shard(8, 8), Launcher::AwsBatch))
        );
        // Kubernetes Indexed Job, from 0, K from the manifest's NQUEENS_SHARDS.
        assert_eq!(
            from(&[("JOB_COMPLETION_INDEX", "7"), ("NQUEENS_SHARDS", "8")]),
            Ok((shard(8, 8), Launcher::Kubernetes))
        );
        let k8s = from(&[("JOB_COMPLETION_INDEX", "0")])
            .unwrap_err()
            .to_string();
        assert!(
            k8s.contains("JOB_COMPLETION_INDEX") && k8s.contains("NQUEENS_SHARDS"),
            "{k8s}"
        );
    }

    /// Variables left by an outer launcher do not mislead: Grid Engine's and LSF's marks of a
    /// job that is no array are passed over, and an array task is one shard whatever runs in it.
    #[test]
    fn leftover_variables_do_not_mislead() {
        let from = |vars: &[(&str, &str)]| Shard::from_env(env(vars));
        // mpirun in a Grid Engine or LSF job that is no array: the MPI rank.
        assert_eq!(
            from(&[
                ("SGE_TASK_ID", "undefined"),
                ("LSB_JOBINDEX", "0"),
                ("OMPI_COMM_WORLD_RANK", "2"),
                ("OMPI_COMM_WORLD_SIZE", "4"),
            ]),
            Ok((shard(3, 4), Launcher::OpenMpi))
        );
        // A Slurm array task started from a shell that had a Kubernetes index: Slurm's.
        assert_eq!(
            from(&[
                ("SLURM_ARRAY_TASK_ID", "2"),
                ("SLURM_ARRAY_TASK_MIN", "1"),
                ("SLURM_ARRAY_TASK_MAX", "4"),
                ("JOB_COMPLETION_INDEX", "0"),
                ("NQUEENS_SHARDS", "8"),
            ]),
            Ok((shard(2, 4), Launcher::SlurmArray))
        );
        // srun inside a Grid Engine job that is no array: srun's task.
        assert_eq!(
            from(&[
                ("SGE_TASK_ID", "undefined"),
                ("SLURM_PROCID", "1"),
                ("SLURM_NTASKS", "2"),
                ("SLURM_STEP_ID", "0"),
            ]),
            Ok((shard(2, 2), Launcher::Srun))
        );
    }
}
