//! Launcher detection: which shard a Slurm job array, Open MPI, MPICH (PMI) or srun says this
//! process is (`--shard auto`).

use std::fmt;

use super::shard::{Error, Shard};

impl Shard {
    /// The shard the launcher that started this process says it is, read through `var`
    /// (`|name| std::env::var(name).ok()` for the real environment).
    ///
    /// Looked for in this order: a Slurm job array (`SLURM_ARRAY_TASK_ID` with
    /// `SLURM_ARRAY_TASK_MIN`/`_MAX`/`_STEP` or `_COUNT`; the array may start at 0 or 1 and have
    /// a step), Open MPI (`OMPI_COMM_WORLD_RANK`/`_SIZE`), MPICH and other PMI launchers
    /// (`PMI_RANK`/`PMI_SIZE`), then `srun` (`SLURM_PROCID`/`SLURM_NTASKS`). MPI comes before
    /// `srun` because `mpirun` inside a Slurm job inherits the job's `SLURM_*` variables.
    pub fn from_env(var: impl Fn(&str) -> Option<String>) -> Result<(Shard, Launcher), Error> {
        let number = |name: &'static str| -> Result<Option<i64>, Error> {
            var(name)
                .map(|value| {
                    value.trim().parse::<i64>().map_err(|_| Error::Variable {
                        name,
                        value,
                        problem: "is not a whole number",
                    })
                })
                .transpose()
        };
        let pair = |rank: &'static str, size: &'static str| -> Result<Option<(i64, i64)>, Error> {
            match (number(rank)?, number(size)?) {
                (None, None) => Ok(None),
                (Some(r), Some(s)) => Ok(Some((r, s))),
                (Some(_), None) => Err(Error::Missing {
                    set: rank,
                    missing: size,
                }),
                (None, Some(_)) => Err(Error::Missing {
                    set: size,
                    missing: rank,
                }),
            }
        };
        let zero_based = |launcher: Launcher, (rank, size): (i64, i64)| {
            let shard = Shard::checked(rank.saturating_add(1), size).map_err(|_| Error::Rank {
                launcher: launcher.name(),
                rank,
                size,
            })?;
            Ok((shard, launcher))
        };
        if let Some(id) = number("SLURM_ARRAY_TASK_ID")? {
            return slurm_array(id, number).map(|s| (s, Launcher::SlurmArray));
        }
        if let Some(p) = pair("OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE")? {
            return zero_based(Launcher::OpenMpi, p);
        }
        if let Some(p) = pair("PMI_RANK", "PMI_SIZE")? {
            return zero_based(Launcher::Pmi, p);
        }
        if let Some(p) = pair("SLURM_PROCID", "SLURM_NTASKS")? {
            // The batch script of `sbatch -n K` runs once, as task 0 of K: counting shard 1 and
            // calling it done would leave K - 1 shards uncounted. Only srun's tasks (in a job
            // step) are the K shards.
            if p.1 > 1 && var("SLURM_STEP_ID").is_none() && var("SLURM_STEPID").is_none() {
                return Err(Error::BatchScript { tasks: p.1 });
            }
            return zero_based(Launcher::Srun, p);
        }
        Err(Error::NoLauncher)
    }
}

/// Position of `id` in a Slurm job array `MIN-MAX:STEP` (or `_COUNT` tasks from `MIN`).
fn slurm_array(
    id: i64,
    number: impl Fn(&'static str) -> Result<Option<i64>, Error>,
) -> Result<Shard, Error> {
    let min = number("SLURM_ARRAY_TASK_MIN")?.ok_or(Error::Missing {
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
            return Err(Error::Array {
                id,
                min,
                step,
                count: Some(count),
            });
        }
        (Some(max), _) if step > 0 => (max - min) / step + 1,
        (None, Some(count)) => count,
        (None, None) => {
            return Err(Error::Missing {
                set: "SLURM_ARRAY_TASK_ID",
                missing: "SLURM_ARRAY_TASK_MAX or SLURM_ARRAY_TASK_COUNT",
            })
        }
        _ => {
            return Err(Error::Array {
                id,
                min,
                step,
                count: None,
            })
        }
    };
    let offset = id - min;
    if step <= 0 || offset < 0 || offset % step != 0 {
        return Err(Error::Array {
            id,
            min,
            step,
            count: Some(count),
        });
    }
    Shard::checked(offset / step + 1, count).map_err(|_| Error::Array {
        id,
        min,
        step,
        count: Some(count),
    })
}

/// Who started this process, as [`Shard::from_env`] found it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Launcher {
    /// A Slurm job array (`sbatch --array`).
    SlurmArray,
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
        assert_eq!(batch, Error::BatchScript { tasks: 3 });
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
}
