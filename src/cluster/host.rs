//! Which machine counted a shard: its name, compared normalised, and its identity, read from
//! the system, so that a quorum counts machines and not names.
//!
//! A shard file records both ([`crate::cluster::PartialResult::host`] and `machine`). The
//! identity is a hash of `/etc/machine-id` (the installation: it survives a reboot) and one of
//! the kernel's boot id (`/proc/sys/kernel/random/boot_id`: the running kernel, which every
//! container on one machine shares, whatever its own machine id or host name). Two results come
//! from one machine when their names, their machine ids or their boot ids are equal; a quorum of
//! Q asks for Q results that no such tie joins.
//!
//! This guards against the faults of one machine (memory, a CPU, a build), not against a user
//! who edits files: the identity is a hash anyone can copy.

/// A name as compared: lower case, without white space or NUL bytes anywhere, or final dots.
pub(crate) fn normalised(name: &str) -> String {
    let kept: String = name
        .chars()
        .filter(|&c| !c.is_whitespace() && c != '\0')
        .collect();
    kept.trim_end_matches('.').to_lowercase()
}

/// This machine's identity: `machine-id:` and `boot-id:` parts, each the FNV-1a hash of the
/// file's contents in 16 hex digits, for those the system has; `None` when it has neither.
pub(crate) fn machine() -> Option<String> {
    let part = |label: &str, path: &str| {
        let text = std::fs::read_to_string(path).ok()?;
        let text = text.trim();
        (!text.is_empty()).then(|| format!("{label}:{:016x}", fnv1a(text.as_bytes())))
    };
    let parts: Vec<String> = [
        part("machine-id", "/etc/machine-id"),
        part("boot-id", "/proc/sys/kernel/random/boot_id"),
    ]
    .into_iter()
    .flatten()
    .collect();
    (!parts.is_empty()).then(|| parts.join(" "))
}

/// FNV-1a, 64 bits.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// How many different machines a shard's copies were counted on: copies are joined when their
/// normalised names, machine ids or boot ids are equal, and the joined groups counted. A copy
/// without a machine identity (none, or an empty one) is no machine of its own unless `by_name`
/// (the user vouches for the names): it still joins the machine its name names.
pub(crate) fn machines<'a>(
    copies: impl IntoIterator<Item = (&'a str, Option<&'a str>)>,
    by_name: bool,
) -> usize {
    let copies: Vec<(&str, Option<&str>)> = copies
        .into_iter()
        .map(|(name, machine)| (name, machine.filter(|m| !m.trim().is_empty())))
        .collect();
    let identified: Vec<bool> = copies.iter().map(|(_, m)| by_name || m.is_some()).collect();
    // Each copy's marks: its name and each part of its identity.
    let marks: Vec<Vec<String>> = copies
        .into_iter()
        .map(|(name, machine)| {
            std::iter::once(format!("name:{}", normalised(name)))
                .chain(
                    machine
                        .into_iter()
                        .flat_map(|m| m.split_whitespace().map(String::from)),
                )
                .collect()
        })
        .collect();
    // Union-find over the copies, joined by any shared mark.
    let mut parent: Vec<usize> = (0..marks.len()).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let mut first: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for (i, marks) in marks.iter().enumerate() {
        for mark in marks {
            let j = *first.entry(mark.as_str()).or_insert(i);
            let (a, b) = (root(&mut parent, i), root(&mut parent, j));
            parent[a] = b;
        }
    }
    // A group is a machine when one of its copies says which machine it is.
    let mut counted = std::collections::HashSet::new();
    for (i, &known) in identified.iter().enumerate() {
        if known {
            counted.insert(root(&mut parent, i));
        }
    }
    counted.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_compared_normalised() {
        for name in ["vm", "VM", "vm ", "vm\0", " vm.", "Vm\n", " v m ", "v\0m"] {
            assert_eq!(normalised(name), "vm", "{name:?}");
        }
        assert_eq!(
            machines(["vm", "VM", "vm ", "vm\0"].map(|n| (n, None)), true),
            1
        );
        assert_eq!(machines([("node-a", None), ("node-b", None)], true), 2);
    }

    /// A file without a machine identity (formats 2 and 3, `machine: ""`) is no machine unless
    /// the user vouches for host names: renaming a host must not make a second machine.
    #[test]
    fn a_copy_without_an_identity_is_no_machine_unless_names_are_trusted() {
        let a = "machine-id:1 boot-id:2";
        assert_eq!(machines([("node-a", Some(a)), ("node-b", None)], false), 1);
        assert_eq!(
            machines([("node-a", Some(a)), ("node-b", Some(""))], false),
            1
        );
        assert_eq!(machines([("node-a", None), ("node-b", None)], false), 0);
        assert_eq!(machines([("node-a", Some(a)), ("node-b", None)], true), 2);
        // Its name still joins it to the machine of that name.
        assert_eq!(machines([("node-a", Some(a)), ("Node-A", None)], true), 1);
    }

    #[test]
    fn one_kernel_or_one_installation_is_one_machine() {
        let (a, b) = ("machine-id:1 boot-id:2", "machine-id:3 boot-id:2");
        // Renamed in a namespace (unshare -u), or two containers: one boot id.
        assert_eq!(
            machines([("node-a", Some(a)), ("node-b", Some(b))], false),
            1
        );
        // One installation, rebooted: one machine id.
        let rebooted = "machine-id:1 boot-id:9";
        assert_eq!(
            machines([("node-a", Some(a)), ("node-c", Some(rebooted))], false),
            1
        );
        // Two machines.
        let other = "machine-id:5 boot-id:6";
        assert_eq!(
            machines([("node-a", Some(a)), ("node-b", Some(other))], false),
            2
        );
        // Joined through a third copy.
        let copies = [("x", Some(a)), ("y", Some(other)), ("X", None)];
        assert_eq!(machines(copies, false), 2);
    }

    #[test]
    fn this_machine_has_an_identity_in_hex() {
        if let Some(m) = machine() {
            assert!(m
                .split_whitespace()
                .all(|p| p.rsplit(':').next().unwrap().len() == 16));
        }
    }
}
