//! What machine this is, for the header of every result.

use model::characterization::MachineInfo;

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
    fn slug_is_file_name_safe() {
        let m = MachineInfo {
            cpu_model: "Intel(R) Xeon(R) CPU @ 2.20GHz".into(),
            cores: 2,
            os: String::new(),
            hostname: String::new(),
            arch: String::new(),
        };
        let s = machine_slug(&m);
        assert!(
            s.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'),
            "{s}"
        );
        assert!(s.ends_with("-2c"));
    }
}
