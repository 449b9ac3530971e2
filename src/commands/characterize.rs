//! `opcost characterize` (issue 2, in progress).

#[derive(clap::Args)]
pub struct Args {}

pub fn run(_a: Args) -> anyhow::Result<()> {
    anyhow::bail!("characterize is being built")
}
