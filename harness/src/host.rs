//! What machine this is, for the header of every result.

use model::characterization::{MachineInfo, OsCache};

fn read_trimmed(path: &str) -> Option<String> {
    std::fs::read_to_string(path)
        .ok()
        .map(|s| s.trim().to_string())
}

pub fn machine_info() -> MachineInfo {
    let cpu_model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".to_string());
    let os_name = read_trimmed("/etc/os-release")
        .and_then(|s| {
            s.lines().find(|l| l.starts_with("PRETTY_NAME=")).map(|l| {
                l.trim_start_matches("PRETTY_NAME=")
                    .trim_matches('"')
                    .to_string()
            })
        })
        .unwrap_or_else(|| std::env::consts::OS.to_string());
    let kernel = read_trimmed("/proc/sys/kernel/osrelease").unwrap_or_default();
    MachineInfo {
        cpu_model,
        cores: std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1),
        os: format!("{os_name} {kernel}").trim().to_string(),
        hostname: read_trimmed("/proc/sys/kernel/hostname").unwrap_or_else(|| "unknown".into()),
        arch: std::env::consts::ARCH.to_string(),
        os_caches: os_caches(),
        machine_id: read_trimmed("/etc/machine-id").unwrap_or_default(),
        slurm_partition: std::env::var("SLURM_JOB_PARTITION")
            .ok()
            .filter(|p| !p.is_empty()),
    }
}

/// The data and unified caches of CPU 0 as sysfs reports them, one per level (the largest
/// where a level lists several); empty where sysfs has none.
pub fn os_caches() -> Vec<OsCache> {
    let mut out: Vec<OsCache> = Vec::new();
    for i in 0..16 {
        let dir = format!("/sys/devices/system/cpu/cpu0/cache/index{i}");
        let Some(kind) = read_trimmed(&format!("{dir}/type")) else {
            break;
        };
        if kind == "Instruction" {
            continue;
        }
        let level = read_trimmed(&format!("{dir}/level")).and_then(|l| l.parse().ok());
        let size = read_trimmed(&format!("{dir}/size")).and_then(|s| parse_size(&s));
        let ways =
            read_trimmed(&format!("{dir}/ways_of_associativity")).and_then(|w| w.parse().ok());
        if let (Some(level), Some(size_bytes)) = (level, size) {
            match out.iter_mut().find(|c| c.level == level) {
                Some(c) if size_bytes > c.size_bytes => {
                    c.size_bytes = size_bytes;
                    c.ways = ways;
                }
                Some(_) => {}
                None => out.push(OsCache {
                    level,
                    kind,
                    size_bytes,
                    ways,
                }),
            }
        }
    }
    out.sort_by_key(|c| c.level);
    out
}

/// sysfs sizes: `32K`, `1024K`, `32M`, or plain bytes.
fn parse_size(s: &str) -> Option<u64> {
    let (digits, unit) = s.split_at(s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len()));
    let n: u64 = digits.parse().ok()?;
    match unit.trim() {
        "" => Some(n),
        "K" | "KB" | "KiB" => Some(n << 10),
        "M" | "MB" | "MiB" => Some(n << 20),
        "G" | "GB" | "GiB" => Some(n << 30),
        _ => None,
    }
}

/// A file-name-safe name for the machine: its CPU model and core count (host names on shared
/// machines are throw-away, the CPU is what the numbers describe).
pub fn machine_slug(m: &MachineInfo) -> String {
    let mut slug = String::new();
    for ch in m.cpu_model.chars() {
        if ch.is_ascii_alphanumeric() {
            slug.push(ch.to_ascii_lowercase());
        } else if !slug.ends_with('-') && !slug.is_empty() {
            slug.push('-');
        }
    }
    let slug = slug
        .replace("-r-", "-")
        .replace("-tm-", "-")
        .replace("-cpu-", "-");
    format!("{}-{}c", slug.trim_matches('-'), m.cores)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sysfs_sizes_parse() {
        assert_eq!(parse_size("32K"), Some(32 << 10));
        assert_eq!(parse_size("32M"), Some(32 << 20));
        assert_eq!(parse_size("4096"), Some(4096));
        assert_eq!(parse_size("lots"), None);
    }

    #[test]
    fn this_host_has_a_stable_key_and_its_caches_in_order() {
        let (a, b) = (machine_info(), machine_info());
        assert_eq!(a.host_key(), b.host_key());
        assert_eq!(a.host_key().len(), 12);
        assert!(a.os_caches.windows(2).all(|w| w[0].level < w[1].level));
        let mut other = a.clone();
        other.hostname.push('x');
        assert_ne!(other.host_key(), a.host_key());
    }

    #[test]
    fn slug_is_file_name_safe() {
        let m = MachineInfo {
            cpu_model: "Intel(R) Xeon(R) CPU @ 2.20GHz".into(),
            cores: 2,
            os: String::new(),
            hostname: String::new(),
            arch: String::new(),
            ..Default::default()
        };
        let s = machine_slug(&m);
        assert!(
            s.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'),
            "{s}"
        );
        assert!(s.ends_with("-2c"));
    }
}
