fn main() {
    let c = harness::Compiler::find(None, &[]).unwrap();
    let quick = std::env::args().any(|a| a == "--quick");
    let r = xray::measure(&c, &xray::XrayOptions { quick }, &mut |m| eprintln!("{m}")).unwrap();
    println!("{r:#?}");
}
