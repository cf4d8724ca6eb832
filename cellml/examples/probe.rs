//! Prints the variables of a CellML file that are not finite at its
//! initial state, and the states' updates (a debugging aid for imports).
//!
//! `cargo run --release -p fibril-cellml --example probe -- FILE.cellml`

fn main() {
    let path = std::env::args().nth(1).expect("usage: probe FILE.cellml");
    let text = std::fs::read_to_string(&path).unwrap();
    let imp = fibril_cellml::import(&text, "probe", &path, 0.01, &[], &Default::default()).unwrap();
    let p = &imp.plan;
    let (val, dif) = p.evaluate(&Default::default());
    for (i, v) in p.model.vars.iter().enumerate() {
        let bad = |x: Option<f64>| x.is_some_and(|x| !x.is_finite());
        if bad(val[i]) || bad(dif[i]) {
            println!("{} = {:?}, d/dt = {:?}", v.cellml, val[i], dif[i]);
        }
    }
    for s in &p.states {
        println!(
            "{}: {:?} d/dt {:?}",
            p.model.vars[*s].cellml,
            p.schemes.get(s).map(|x| format!("{x:?}").chars().take(60).collect::<String>()),
            dif[*s]
        );
    }
}
