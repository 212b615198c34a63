//! The project's shape, checked on its sources: the floors' arrows point down (`rules` <-
//! `engine`/`render`/`store` <- `service` <- `discord`), and the Discord modules do not import
//! each other in a circle. Both rules are easy to break with one `use` line, and a circle of
//! modules is how a layer turns into one tangle; a reviewer would not see it in a diff.
//!
//! The reading is textual: comments, string literals and `#[cfg(test)]` modules are dropped,
//! then every path that starts at `super::`, `self::` or `crate::` is resolved against the
//! file's own module path (`use` trees with braces expanded, across lines).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Replaces comments with nothing and string and character literals with empty ones, keeping
/// the line breaks (so a position still tells its line).
fn strip(src: &str) -> String {
    let s: Vec<char> = src.chars().collect();
    let n = s.len();
    let mut out = String::with_capacity(n);
    let mut i = 0;
    let starts = |i: usize, pat: &str| {
        pat.chars()
            .enumerate()
            .all(|(k, c)| s.get(i + k) == Some(&c))
    };
    let ident_before = |i: usize| i > 0 && (s[i - 1].is_alphanumeric() || s[i - 1] == '_');
    while i < n {
        if starts(i, "//") {
            while i < n && s[i] != '\n' {
                i += 1;
            }
        } else if starts(i, "/*") {
            let mut depth = 1;
            i += 2;
            while i < n && depth > 0 {
                if starts(i, "/*") {
                    depth += 1;
                    i += 2;
                } else if starts(i, "*/") {
                    depth -= 1;
                    i += 2;
                } else {
                    if s[i] == '\n' {
                        out.push('\n');
                    }
                    i += 1;
                }
            }
        } else if !ident_before(i) && (s[i] == 'r' || starts(i, "br")) {
            // A raw string (r"..", r#".."#, br".."), else an identifier (`r#type`, `break`).
            let mut j = i + if s[i] == 'b' { 2 } else { 1 };
            let mut hashes = 0;
            while j < n && s[j] == '#' {
                hashes += 1;
                j += 1;
            }
            if j < n && s[j] == '"' {
                j += 1;
                while j < n && !(s[j] == '"' && (0..hashes).all(|k| s.get(j + 1 + k) == Some(&'#')))
                {
                    if s[j] == '\n' {
                        out.push('\n');
                    }
                    j += 1;
                }
                out.push_str("\"\"");
                i = j + 1 + hashes;
            } else {
                out.push(s[i]);
                i += 1;
            }
        } else if s[i] == '"' {
            let mut j = i + 1;
            while j < n && s[j] != '"' {
                if s[j] == '\n' {
                    out.push('\n');
                }
                j += if s[j] == '\\' { 2 } else { 1 };
            }
            out.push_str("\"\"");
            i = j + 1;
        } else if s[i] == '\'' && s.get(i + 1) == Some(&'\\') {
            let mut j = i + 2;
            while j < n && s[j] != '\'' {
                j += 1;
            }
            out.push_str("' '");
            i = j + 1;
        } else if s[i] == '\'' && s.get(i + 2) == Some(&'\'') {
            out.push_str("' '");
            i += 3;
        } else {
            // Also a lifetime's quote.
            out.push(s[i]);
            i += 1;
        }
    }
    out
}

/// Blanks every `#[cfg(test)] mod name { .. }` (keeping its line breaks) and drops every
/// `#[cfg(test)] mod name;`: tests may reach anywhere.
fn drop_tests(src: &str) -> String {
    let mut txt = src.to_string();
    let mut from = 0;
    while let Some(k) = txt[from..].find("#[cfg(test)]") {
        let at = from + k;
        let rest = &txt[at + "#[cfg(test)]".len()..];
        let trimmed = rest.trim_start();
        let after_vis = trimmed
            .strip_prefix("pub(crate)")
            .or_else(|| trimmed.strip_prefix("pub(super)"))
            .or_else(|| trimmed.strip_prefix("pub"))
            .unwrap_or(trimmed)
            .trim_start();
        let Some(after_mod) = after_vis.strip_prefix("mod ") else {
            from = at + 1;
            continue;
        };
        let name_len = after_mod
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(after_mod.len());
        let tail = after_mod[name_len..].trim_start();
        let body_at = txt.len() - tail.len();
        if tail.starts_with(';') {
            txt.replace_range(at..=body_at, "");
        } else if tail.starts_with('{') {
            let bytes = txt.as_bytes();
            let mut depth = 0i32;
            let mut end = body_at;
            while end < bytes.len() {
                match bytes[end] {
                    b'{' => depth += 1,
                    b'}' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
                end += 1;
            }
            let end = (end + 1).min(txt.len());
            let lines = "\n".repeat(txt[at..end].matches('\n').count());
            txt.replace_range(at..end, &lines);
        }
        from = at + 1;
    }
    txt
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The paths of a use tree or path tail starting at `s[i..]` (just after a `::`), each as its
/// segments; with the index after it.
fn parse_tree(s: &[char], mut i: usize) -> (Vec<Vec<String>>, usize) {
    while i < s.len() && s[i].is_whitespace() {
        i += 1;
    }
    if i < s.len() && s[i] == '{' {
        i += 1;
        let mut paths = Vec::new();
        loop {
            while i < s.len() && (s[i].is_whitespace() || s[i] == ',') {
                i += 1;
            }
            if i >= s.len() || s[i] == '}' {
                return (paths, i + 1);
            }
            let before = i;
            let (sub, next) = parse_tree(s, i);
            paths.extend(sub);
            // Whatever is not a path (`as name`, a stray token) is stepped over.
            i = if next > before { next } else { before + 1 };
        }
    }
    if i < s.len() && s[i] == '*' {
        return (vec![vec!["*".into()]], i + 1);
    }
    // A raw identifier (`r#type`) is its name.
    if s[i..].starts_with(&['r', '#']) {
        i += 2;
    }
    let start = i;
    while i < s.len() && is_ident(s[i]) {
        i += 1;
    }
    if i == start {
        return (vec![vec![]], i);
    }
    let seg: String = s[start..i].iter().collect();
    let mut j = i;
    while j < s.len() && s[j].is_whitespace() {
        j += 1;
    }
    if s[j..].starts_with(&[':', ':']) {
        let mut k = j + 2;
        while k < s.len() && s[k].is_whitespace() {
            k += 1;
        }
        if k < s.len() && s[k] == '<' {
            return (vec![vec![seg]], k);
        }
        let (subs, next) = parse_tree(s, k);
        return (
            subs.into_iter()
                .map(|p| std::iter::once(seg.clone()).chain(p).collect())
                .collect(),
            next,
        );
    }
    (vec![vec![seg]], i)
}

/// Every crate path a source file names, resolved from its module path `ctx` (`["discord",
/// "post"]`), as segments from the crate root, with the line it is on.
fn crate_paths(src: &str, ctx: &[String]) -> Vec<(Vec<String>, usize)> {
    let txt = drop_tests(&strip(src));
    let s: Vec<char> = txt.chars().collect();
    let mut found = Vec::new();
    let mut line = 1;
    let mut i = 0;
    while i < s.len() {
        if s[i] == '\n' {
            line += 1;
        }
        let boundary = i == 0 || !(is_ident(s[i - 1]) || s[i - 1] == ':' || s[i - 1] == '$');
        let head = ["super", "crate", "self"]
            .into_iter()
            .find(|h| boundary && s[i..].starts_with(&h.chars().collect::<Vec<_>>()));
        let Some(head) = head else {
            i += 1;
            continue;
        };
        let mut j = i + head.len();
        while j < s.len() && s[j].is_whitespace() {
            j += 1;
        }
        if !s[j..].starts_with(&[':', ':']) {
            i += 1;
            continue;
        }
        let (paths, _) = parse_tree(&s, j + 2);
        for p in paths {
            let mut base: Vec<String> = match head {
                "crate" => Vec::new(),
                "self" => ctx.to_vec(),
                _ => ctx[..ctx.len().saturating_sub(1)].to_vec(),
            };
            let mut p = p.as_slice();
            while head == "super" && p.first().is_some_and(|x| x == "super") {
                base.pop();
                p = &p[1..];
            }
            base.extend(p.iter().filter(|x| *x != "self").cloned());
            found.push((base, line));
        }
        i = j + 2;
    }
    found
}

/// The `.rs` files below `dir`, each with its module path from the crate root (`src/a/b.rs`
/// is `["a", "b"]`, `src/a/mod.rs` is `["a"]`).
fn modules(src_root: &Path, dir: &Path) -> Vec<(PathBuf, Vec<String>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel = path.strip_prefix(src_root).expect("below the source root");
                let mut ctx: Vec<String> = rel
                    .with_extension("")
                    .iter()
                    .map(|c| c.to_string_lossy().into_owned())
                    .collect();
                if ctx.last().is_some_and(|l| l == "mod") {
                    ctx.pop();
                }
                out.push((path, ctx));
            }
        }
    }
    out.sort();
    out
}

/// The graph of one layer's modules: for each module directly below `layer` (a file or a
/// folder), the sibling modules it names, each with one place that names it.
fn module_graph(
    files: &[(String, Vec<String>, String)],
    layer: &str,
) -> BTreeMap<String, BTreeMap<String, String>> {
    let mut graph: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for (_, ctx, _) in files {
        if ctx.len() > 1 && ctx[0] == layer {
            graph.entry(ctx[1].clone()).or_default();
        }
    }
    for (name, ctx, src) in files {
        if ctx.len() < 2 || ctx[0] != layer {
            continue;
        }
        let me = &ctx[1];
        for (path, line) in crate_paths(src, ctx) {
            if path.len() >= 2 && path[0] == layer && &path[1] != me && graph.contains_key(&path[1])
            {
                graph
                    .get_mut(me)
                    .expect("every module is a node")
                    .entry(path[1].clone())
                    .or_insert_with(|| format!("{name}:{line}"));
            }
        }
    }
    graph
}

/// A circle of the graph, as the modules along it with where each names the next; `None`
/// when there is none.
fn find_circle(graph: &BTreeMap<String, BTreeMap<String, String>>) -> Option<Vec<String>> {
    // Depth-first search; 0 unseen, 1 on the stack, 2 done.
    fn visit(
        v: &str,
        graph: &BTreeMap<String, BTreeMap<String, String>>,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(v.to_string(), 1);
        stack.push(v.to_string());
        for (w, at) in &graph[v] {
            match state.get(w).copied().unwrap_or(0) {
                1 => {
                    let from = stack.iter().position(|x| x == w).expect("on the stack");
                    let mut circle: Vec<String> = stack[from..].to_vec();
                    circle.push(format!("{w} (named at {at})"));
                    return Some(circle);
                }
                0 => {
                    if let Some(c) = visit(w, graph, state, stack) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        stack.pop();
        state.insert(v.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for v in graph.keys() {
        if state.get(v).copied().unwrap_or(0) == 0 {
            let mut stack = Vec::new();
            if let Some(c) = visit(v, graph, &mut state, &mut stack) {
                return Some(c);
            }
        }
    }
    None
}

/// Every source file of the package below `src/` with its module path and text.
fn sources() -> Vec<(String, Vec<String>, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    modules(&root, &root)
        .into_iter()
        .map(|(path, ctx)| {
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let name = path
                .strip_prefix(&root)
                .expect("below src")
                .display()
                .to_string();
            (name, ctx, text)
        })
        .collect()
}

#[test]
fn the_discord_modules_import_each_other_in_no_circle() {
    let files = sources();
    let graph = module_graph(&files, "discord");
    assert!(
        graph.len() > 20,
        "the Discord layer's modules were found: {}",
        graph.len()
    );
    assert!(
        graph.values().map(BTreeMap::len).sum::<usize>() > 30,
        "the reading finds the modules' imports"
    );
    if let Some(circle) = find_circle(&graph) {
        panic!(
            "the Discord modules import each other in a circle: {}",
            circle.join(" -> ")
        );
    }
}

#[test]
fn the_floors_arrows_point_down() {
    // What each floor may not name: the floors above it and its siblings.
    let forbidden: [(&str, &[&str]); 5] = [
        (
            "rules",
            &["engine", "render", "store", "service", "discord"],
        ),
        ("engine", &["render", "store", "service", "discord"]),
        ("render", &["engine", "store", "service", "discord"]),
        ("store", &["engine", "render", "service", "discord"]),
        ("service", &["discord"]),
    ];
    let files = sources();
    let mut wrong = BTreeSet::new();
    let mut seen = 0;
    for (name, ctx, src) in &files {
        let Some((_, above)) = forbidden
            .iter()
            .find(|(floor, _)| ctx.first().is_some_and(|c| c == floor))
        else {
            continue;
        };
        seen += 1;
        for (path, line) in crate_paths(src, ctx) {
            if path.first().is_some_and(|p| above.contains(&p.as_str())) {
                wrong.insert(format!("{name}:{line} names crate::{}", path.join("::")));
            }
        }
    }
    assert!(seen > 50, "the floors' files were read: {seen}");
    assert!(
        wrong.is_empty(),
        "arrows pointing up or sideways:\n{}",
        wrong.into_iter().collect::<Vec<_>>().join("\n")
    );
}

/// The reader itself: on made-up sources, it finds the names a circle is made of, and not
/// those in comments, strings or tests.
#[test]
fn the_reader_sees_imports_and_not_comments_strings_or_tests() {
    let file = |name: &str, src: &str| {
        let ctx: Vec<String> = name
            .trim_end_matches(".rs")
            .split('/')
            .map(str::to_string)
            .collect();
        (name.to_string(), ctx, src.to_string())
    };
    let files = vec![
        file(
            "discord/a.rs",
            "use super::{\n    b::Thing,\n    c,\n};\n// super::d::x\nconst S: &str = \"super::d\";\n#[cfg(test)]\nmod tests {\n    use super::super::d;\n}\n",
        ),
        file("discord/b.rs", "fn f() { crate::discord::c::g(); }\n"),
        file("discord/c.rs", "fn g() {}\n"),
        file("discord/d.rs", "fn h() { let r = r#\"super::a\"#; }\n"),
        file("discord/e/mod.rs", "pub mod inner;\n"),
        file("discord/e/inner.rs", "use super::super::d::h;\n"),
    ];
    let graph = module_graph(&files, "discord");
    let names = |m: &str| graph[m].keys().cloned().collect::<Vec<_>>();
    assert_eq!(names("a"), ["b", "c"]);
    assert_eq!(names("b"), ["c"]);
    assert!(names("d").is_empty());
    assert_eq!(names("e"), ["d"]);
    assert_eq!(find_circle(&graph), None);
    // One more import closes a circle a -> b -> a, and it is told where.
    let mut files = files;
    files[1].2.push_str("use super::a::Other;\n");
    let circle = find_circle(&module_graph(&files, "discord")).expect("a circle");
    assert_eq!(circle[0], "a");
    assert_eq!(circle[1], "b");
    assert!(
        circle[2].starts_with("a (named at discord/b.rs:2"),
        "{circle:?}"
    );
}
