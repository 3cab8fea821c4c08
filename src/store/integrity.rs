//! SQLite's integrity report put in words, for the error that refuses a
//! damaged store: what is wrong, in which table, and how much more was
//! found. SQLite's report starts with a line naming the database (`*** in
//! database main ***`) and goes on with terse lines (`Tree 4 page 7 cell
//! 0: Rowid 12 out of order`) that say little to whoever holds the file.

/// What SQLite's wording of a problem means, by a piece of it. Earlier
/// entries win; a line none matches is quoted as SQLite wrote it.
const MEANINGS: &[(&str, &str)] = &[
    ("out of order", "rows out of order"),
    ("not in primary key order", "rows out of order"),
    ("child page depth differs", "branches of unequal depth"),
    ("btree depth exceeds", "a tree too deep to be sound"),
    (
        "multiple uses for byte",
        "two records written over each other",
    ),
    ("fragmentation of", "a wrong count of a page's free bytes"),
    ("2nd reference to page", "a page used twice"),
    ("never used", "a page that belongs to nothing"),
    ("but should be", "a chain of pages of the wrong length"),
    (
        "missing from overflow list",
        "the rest of a long record missing",
    ),
    ("btreeinitpage", "a page that is not part of any table"),
    ("unable to get the page", "a page that cannot be read"),
    ("failed to get page", "a page that cannot be read"),
    (
        "invalid page number",
        "a reference to a page past the end of the file",
    ),
    (
        "extends off end of page",
        "a record running past the end of its page",
    ),
    ("bad cell header size", "a record with a damaged header"),
    ("out of range", "a record pointer outside its page"),
    ("free space corruption", "its free space damaged"),
    ("freelist", "the list of free pages damaged"),
    ("ptr map", "the map of pages damaged"),
    ("ptrmap", "the map of pages damaged"),
    ("pointer map", "the map of pages damaged"),
    (
        "max rootpage",
        "a wrong count of tables in the file's header",
    ),
    ("missing from index", "a row missing from its index"),
    (
        "wrong # of entries",
        "an index that does not match its rows",
    ),
    ("non-unique entry", "a key stored twice"),
    ("null value in", "an empty field that must hold a value"),
    ("value in", "a field of the wrong type"),
    ("check constraint failed", "a value its table forbids"),
];

/// The tables of a store, by their SQLite names, as the message calls them.
const TABLES: &[(&str, &str)] = &[
    ("bounds", "the table of proved bounds"),
    ("meta", "the header table (rules, board size, cell values)"),
];

/// `integrity check failed: ...`: the first problem of SQLite's `report`
/// (`PRAGMA integrity_check`'s lines) in words, where it is (the table, when
/// the line names its tree and `trees` holds that root page), and how
/// many more there are.
pub(super) fn describe(report: &[String], trees: &[(u32, String)]) -> String {
    let problems: Vec<&str> = report
        .iter()
        .flat_map(|row| row.lines())
        .map(str::trim)
        .filter(|l| !l.is_empty() && !names_the_database(l))
        .collect();
    let Some(first) = problems.first() else {
        return "integrity check failed, with no problem named".to_owned();
    };
    let lower = first.to_lowercase();
    let what = MEANINGS
        .iter()
        .find(|(piece, _)| lower.contains(piece))
        .map_or_else(
            || format!("\"{first}\""),
            |(_, meaning)| meaning.to_string(),
        );
    let named = |name: &str| {
        TABLES.iter().find(|(table, _)| *table == name).map_or_else(
            || format!("the table {name}"),
            |(_, words)| words.to_string(),
        )
    };
    let place = if let Some(root) = tree_of(first) {
        match trees.iter().find(|(r, _)| *r == root) {
            Some((_, name)) => format!(" in {}", named(name)),
            None => format!(" in the table whose tree starts at page {root}"),
        }
    } else if let Some((table, _)) = TABLES.iter().find(|(table, _)| {
        first
            .split(|c: char| c.is_whitespace() || c == '.')
            .any(|word| word == *table)
    }) {
        format!(" in {}", named(table))
    } else if let Some(page) = page_of(first) {
        format!(" at page {page}")
    } else {
        String::new()
    };
    let more = match problems.len() - 1 {
        0 => String::new(),
        1 => ", and 1 more problem".to_owned(),
        n => format!(", and {n} more problems"),
    };
    format!("integrity check failed: {what}{place}{more}")
}

/// The line that opens SQLite's report of a database: `*** in database
/// main ***`, no problem in itself.
fn names_the_database(line: &str) -> bool {
    line.starts_with("*** in database") && line.ends_with("***")
}

/// The root page in `Tree N page ...`, as SQLite 3.44 and later begin a
/// problem found inside a table.
fn tree_of(line: &str) -> Option<u32> {
    number_after(line.strip_prefix("Tree ")?)
}

/// The page a line names: `Page N: ...`, `... of page N`, `On tree page N`
/// (older SQLite), the first one.
fn page_of(line: &str) -> Option<u32> {
    let lower = line.to_lowercase();
    lower
        .match_indices("page ")
        .find_map(|(at, piece)| number_after(&lower[at + piece.len()..]))
}

fn number_after(text: &str) -> Option<u32> {
    let digits: String = text.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::describe;

    fn lines(text: &[&str]) -> Vec<String> {
        text.iter().map(|l| l.to_string()).collect()
    }

    #[test]
    fn the_first_problem_is_said_in_words_with_its_table() {
        let trees = [(2, "meta".to_owned()), (3, "bounds".to_owned())];
        let report = lines(&[
            "*** in database main ***\nTree 3 page 5 cell 2: Rowid 9 out of order\nPage 7: never used",
            "row 3 missing from index x",
        ]);
        assert_eq!(
            describe(&report, &trees),
            "integrity check failed: rows out of order in the table of proved bounds, and 2 more problems"
        );
        assert_eq!(
            describe(&lines(&["Page 7: never used"]), &trees),
            "integrity check failed: a page that belongs to nothing at page 7"
        );
        assert_eq!(
            describe(&lines(&["NULL value in bounds.lo", "TEXT value in meta.value"]), &trees),
            "integrity check failed: an empty field that must hold a value in the table of proved bounds, and 1 more problem"
        );
        assert_eq!(
            describe(&lines(&["Multiple uses for byte 12 of page 5"]), &trees),
            "integrity check failed: two records written over each other at page 5"
        );
        assert_eq!(
            describe(&lines(&["Tree 9 page 9: Child page depth differs"]), &trees),
            "integrity check failed: branches of unequal depth in the table whose tree starts at page 9"
        );
    }

    #[test]
    fn an_unknown_problem_is_quoted() {
        let said = describe(&lines(&["*** in database main ***", "something new"]), &[]);
        assert_eq!(said, "integrity check failed: \"something new\"");
        assert!(!said.contains("***"));
    }
}
