#!/usr/bin/env python3
"""Compiles the built-in templates (templates/*.mustache) into Swift that writes each page's bytes
straight from its typed view model (Sources/OrderPress/Render/PageModels.swift), with no `Any` look-up:
Sources/OrderPress/Render/GeneratedPages.swift. Run by `make templates` after embed-templates.py;
`--check` writes nothing and fails when the file is not what it would write. GeneratedPagesTests fails
when the generated file is older than the templates, PageModels.swift or this script, or edited by hand, and BuiltInPagesTests renders whole sites through it and through swift-mustache and
requires the same bytes.

The templates are the one definition of a page. This script reads them the way swift-mustache 2 reads
them (Template+Parser.swift: standalone lines, whitespace before tags, the `{{% CONTENT_TYPE:…}}` tag
that TemplateSet puts before every template) and looks names up as its renderer does
(Template+Render.swift `getChild`): the first part of a dotted name up the context stack, innermost
first, the rest inside what was found; a nil optional counts as absent, so the look-up goes on
outwards. Sections over arrays loop, over a Bool test it, over anything else present render once with
it pushed; inverted sections render when the value is absent, false or an empty array.

It compiles: text, `{{name}}`, `{{{name}}}`, `{{&name}}`, `{{.}}`, dotted names, `{{#…}}`, `{{^…}}`,
`{{! comments}}` and `{{> partial}}` (inlined; not indented). Anything else (lambdas, transforms,
set delimiters, inheritance, dynamic partials, an indented standalone partial, a field type other than
String, Int, Bool, [String: String], arrays, optionals, PageModels structs, cells and `PageRows`) stops
it with a message naming the template and the tag. Field types are read from PageModels.swift: every
stored `var`/`let` of each struct inside `enum PageModels`, one per line; a line there that looks like
a property but cannot be read is an error too, not skipped.

Two kinds of field keep the tables of orders and people from making a String per cell (group and
person pages are nearly every page of a site):
- a cell, a type PageCell.swift declares as `struct Name: PageCell` (an amount, an order's text read
  where the order is stored): `{{cell}}` compiles to `cell.write(into: &out)`, the cell writing its
  bytes itself; a section over it renders once, as over a String (swift-mustache sees its text,
  `TemplateContext`);
- `PageRows<Row>`, rows made one at a time while the page is written: a section over it compiles to
  `rows.forEach { row in … }` (each row valid only inside), an inverted one to `rows.isEmpty`, as over
  an array (swift-mustache sees an array).
`{{labels.name}}` compiles to `labels[.name]` on `GeneratedPages.LabelTable`, each label looked up in
the catalogue once per build; `Label` lists the names the templates use.
"""
import hashlib
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "templates"
MODELS = ROOT / "Sources/OrderPress/Render/PageModels.swift"
# The cell types (`struct Name: PageCell`): values that write themselves into the page.
CELLS = ROOT / "Sources/OrderPress/Render/PageCell.swift"
OUTPUT = ROOT / "Sources/OrderPress/Render/GeneratedPages.swift"

# Each built-in template's view model is the PageModels struct whose doc comment says
# `/// Template: `<name>.md.mustache`.`; Markdown templates see their model's fields plus `labels`
# (SiteRenderer.markdown adds it), the layout sees its model as it is.
LAYOUT = "layout"
# Escaping of `{{…}}` as TemplateSet configures swift-mustache: Markdown pages are TEXT (none: values
# arrive escaped for Markdown), the layout is LayoutHTML (`PageBytes.html`, XMLEscaper.escape); `{{{…}}}`
# and `{{&…}}` are never escaped. A partial renders with its own template's type (always TEXT).


class Refused(Exception):
    pass


# ---- PageModels.swift: the field types -------------------------------------------------------------

def read_models(text):
    """({struct name: {field: type text}}, {template: struct name}) for every struct inside
    `enum PageModels`; a struct whose doc comment has a line `/// Template: `index.md.mustache`.` is the
    view model of that template."""
    lines = text.split("\n")
    structs = {}
    pages = {}
    stack = []  # ("enum"|"struct"|"other", name)
    doc = []
    for number, raw in enumerate(lines, 1):
        stripped = raw.strip()
        if stripped.startswith("///"):
            doc.append(stripped)
            continue
        line = raw.split("//")[0].strip()
        if not line:
            doc = []
            continue
        opened = re.match(r"^(?:public |private |fileprivate |internal )?(enum|struct)\s+(\w+)", line)
        if opened and line.endswith("{"):
            stack.append((opened.group(1), opened.group(2)))
            if opened.group(1) == "struct" and [k for k, _ in stack[:-1]] == ["enum"] and stack[0][1] == "PageModels":
                structs[opened.group(2)] = {}
                for comment in doc:
                    marked = re.match(r"^///\s*Template:\s*`(\w+)\.(md|html)\.mustache`", comment)
                    if marked:
                        if marked.group(1) in pages:
                            raise Refused(f"PageModels.swift:{number}: two models say they are the model of {marked.group(1)}")
                        pages[marked.group(1)] = opened.group(2)
            doc = []
            continue
        doc = []
        if line.startswith("}"):
            stack.pop()
            continue
        inside = len(stack) == 2 and stack[0][1] == "PageModels" and stack[1][0] == "struct"
        prop = re.match(r"^(?:(?:public|private|internal|fileprivate)\s+)?(var|let)\s+(\w+)\s*:\s*(.+)$", line)
        # A literal default says its type (`var hasArchives = false`).
        literal = re.match(r"^(?:(?:public|private|internal|fileprivate)\s+)?(var|let)\s+(\w+)\s*=\s*(true|false|\"[^\"]*\"|-?\d+)$", line)
        if inside and literal:
            value = literal.group(3)
            structs[stack[1][1]][literal.group(2)] = "Bool" if value in ("true", "false") else "String" if value.startswith('"') else "Int"
            continue
        if inside and re.match(r"^(?:(?:public|private|internal|fileprivate)\s+)?(var|let)\s", line):
            if not prop or "{" in prop.group(3):
                raise Refused(f"PageModels.swift:{number}: cannot read the property `{line}` (write one stored `var name: Type` per line)")
            # A default value (`var archives: [String] = []`) does not change the type the template reads.
            structs[stack[1][1]][prop.group(2)] = prop.group(3).split("=")[0].strip()
        elif line.endswith("{"):
            stack.append(("other", ""))
    return structs, pages


def read_cells(text):
    """The names of the types PageCell.swift declares as cells: `struct Name: PageCell`."""
    return set(re.findall(r"^\s*(?:\w+\s+)*struct\s+(\w+)\s*:[^{]*\bPageCell\b", text, re.M))


CELL_TYPES = set()


def parse_type(text, structs, where):
    text = text.strip()
    if text.endswith("?"):
        return ("opt", parse_type(text[:-1], structs, where))
    if text == "[String: String]":
        return ("dict",)
    if text.startswith("[") and text.endswith("]"):
        return ("arr", parse_type(text[1:-1], structs, where))
    rows = re.match(r"^PageRows<(.+)>$", text)
    if rows:
        return ("rows", parse_type(rows.group(1), structs, where))
    if text in CELL_TYPES:
        return ("cell", text)
    if text == "String":
        return ("str",)
    if text == "Int":
        return ("int",)
    if text == "Bool":
        return ("bool",)
    if text in structs:
        return ("struct", text)
    raise Refused(f"{where}: type `{text}` is not one the generator compiles (String, Int, Bool, [String: String], arrays, PageRows, optionals, PageModels structs, PageCell types)")


# ---- the templates, parsed as swift-mustache parses them -------------------------------------------

NAME_CHARS = set("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-_?*")


class Parser:
    def __init__(self, text, file):
        if "\r" in text:
            raise Refused(f"{file}: carriage returns are not compiled; save the template with \\n line ends")
        self.s = text
        self.i = 0
        self.file = file

    def end(self):
        return self.i >= len(self.s)

    def cur(self):
        return self.s[self.i] if self.i < len(self.s) else ""

    def where(self):
        line = self.s.count("\n", 0, self.i) + 1
        return f"{self.file}, line {line}"

    def read_while(self, chars):
        start = self.i
        while self.i < len(self.s) and self.s[self.i] in chars:
            self.i += 1
        return self.s[start:self.i]

    def line_finished(self):
        """hasLineFinished: only blanks to the end of the line (consumed with its newline) or the text."""
        if self.end():
            return True
        j = self.i
        while j < len(self.s) and self.s[j] in " \t":
            j += 1
        if j < len(self.s) and self.s[j] == "\n":
            self.i = j + 1
            return True
        return False

    def read_name(self):
        self.read_while(" \t\n")
        start = self.i
        while self.i < len(self.s) and (self.s[self.i] in NAME_CHARS or self.s[self.i] in "()"):
            self.i += 1
        name = self.s[start:self.i]
        self.read_while(" \t\n")
        if not self.s.startswith("}}", self.i):
            raise Refused(f"{self.where()}: unfinished tag `{{{{{name}`")
        self.i += 2
        if "(" in name or ")" in name:
            raise Refused(f"{self.where()}: transforms (`{name}`) are not compiled")
        if not name:
            raise Refused(f"{self.where()}: a tag without a name")
        return name


def parse_template(text, file):
    """The template as TemplateSet compiles it: after `{{% CONTENT_TYPE:…}}` on its first line, so
    the template's first line never counts as a new line (a tag there is never standalone)."""
    return _parse(Parser(text, file), False, None)


def _parse(parser, new_line, section):
    nodes = []
    ws_before = ""
    while not parser.end():
        if new_line:
            ws_before = parser.read_while(" \t")
        text = ""
        opened = False
        while not parser.end():
            c = parser.cur()
            if c == "\n":
                break
            if parser.s.startswith("{{", parser.i):
                parser.i += 2
                opened = True
                break
            text += c
            parser.i += 1
        if not opened and parser.cur() == "\n":
            nodes.append(("text", ws_before + text + "\n"))
            new_line = True
            parser.i += 1
            continue
        if text:
            nodes.append(("text", ws_before + text))
            ws_before = ""
            new_line = False
        if not opened:
            break
        set_new_line = False
        c = parser.cur()
        tag_start = parser.where()
        if c in "#^":
            parser.i += 1
            name = parser.read_name()
            if new_line and parser.line_finished():
                set_new_line = True
            elif ws_before:
                nodes.append(("text", ws_before))
                ws_before = ""
            inner = _parse(parser, set_new_line, name)
            nodes.append(("section" if c == "#" else "inverted", name, inner))
        elif c == "/":
            parser.i += 1
            name = parser.read_name()
            if name != section:
                raise Refused(f"{tag_start}: `{{{{/{name}}}}}` closes no open section (open: {section})")
            if new_line and parser.line_finished():
                pass
            elif ws_before:
                nodes.append(("text", ws_before))
            return nodes
        elif c == "!":
            end = parser.s.find("}}", parser.i)
            if end < 0:
                raise Refused(f"{tag_start}: unfinished comment")
            parser.i = end + 2
            set_new_line = new_line and parser.line_finished()
        elif c in "{&":
            if ws_before:
                nodes.append(("text", ws_before))
                ws_before = ""
            parser.i += 1
            name = parser.read_name()
            if c == "{":
                if parser.cur() != "}":
                    raise Refused(f"{tag_start}: `{{{{{{{name}}}}}` lacks its third brace")
                parser.i += 1
            nodes.append(("var", name, False))
        elif c == ">":
            parser.i += 1
            parser.read_while(" \t\n")
            if parser.cur() == "*":
                raise Refused(f"{tag_start}: dynamic partials are not compiled")
            start = parser.i
            while parser.i < len(parser.s) and (parser.s[parser.i] in NAME_CHARS or parser.s[parser.i] in "()/"):
                parser.i += 1
            name = parser.s[start:parser.i]
            parser.read_while(" \t\n")
            if not parser.s.startswith("}}", parser.i):
                raise Refused(f"{tag_start}: unfinished partial tag")
            parser.i += 2
            if ws_before:
                nodes.append(("text", ws_before))
            if new_line and parser.line_finished():
                set_new_line = True
                if ws_before:
                    raise Refused(f"{tag_start}: an indented standalone partial (`{{{{> {name}}}}}`) is not compiled; start it at the line's beginning")
            nodes.append(("partial", name))
            ws_before = ""
        elif c in "<$=":
            raise Refused(f"{tag_start}: `{{{{{c}` (inheritance or set delimiters) is not compiled")
        elif c == "%":
            raise Refused(f"{tag_start}: `{{{{%` configuration tags are not compiled; TemplateSet sets the content type")
        else:
            if ws_before:
                nodes.append(("text", ws_before))
                ws_before = ""
            name = parser.read_name()
            nodes.append(("var", name, True))
        new_line = set_new_line
    if section is not None:
        raise Refused(f"{parser.file}: section `{section}` is never closed")
    return nodes


# ---- Swift ------------------------------------------------------------------------------------------

def swift_literal(text):
    out = []
    for ch in text:
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append("\\u{%X}" % ord(ch))
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def camel(name):
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


class Compiler:
    """Writes one template's nodes as Swift statements, resolving every name at generation time."""

    def __init__(self, structs, templates):
        self.structs = structs
        self.templates = templates  # name -> nodes, for partials
        self.lines = []
        self.counter = 0
        self.file = ""
        # Every `labels.…` name the templates show: `LabelTable` looks each up once per build.
        self.labels = set()

    def fresh(self):
        self.counter += 1
        return f"v{self.counter}"

    def emit(self, indent, line):
        self.lines.append("    " * indent + line)

    def fields(self, struct):
        where = f"PageModels.{struct}"
        return {name: parse_type(t, self.structs, f"{where}.{name}") for name, t in self.structs[struct].items()}

    def child(self, expr, kind, name):
        """What `name` is inside a value of `kind`: (expression, type), the type ("opt", …) when it may be
        absent; None when such a value never has it (scalars and arrays have no named children)."""
        if kind[0] == "root":
            if name == "labels":
                return ("labels", ("labels",))
            fields = self.fields(kind[1])
            return (f"{expr}.{name}", fields[name]) if name in fields else None
        if kind[0] == "struct":
            fields = self.fields(kind[1])
            return (f"{expr}.{name}", fields[name]) if name in fields else None
        if kind[0] == "dict":
            return (f"{expr}[{swift_literal(name)}]", ("opt", ("str",)))
        if kind[0] == "labels":
            if not re.fullmatch(r"[a-z][a-z0-9_]*", name):
                raise Refused(f"{self.file}: `labels.{name}` is not a label name (lower case letters, digits and `_`)")
            self.labels.add(name)
            return (f"{expr}[.{camel(name)}]", ("opt", ("str",)))
        return None

    def capture(self, body):
        """Runs `body()` into a list of lines of its own and returns them."""
        saved = self.lines
        self.lines = []
        body()
        made, self.lines = self.lines, saved
        return made

    def branch(self, indent, expr, inner, found, otherwise):
        """`if let v = expr { found(v) } else { otherwise() }`, or a nil test when `found` does not use v."""
        v = self.fresh()
        made = self.capture(lambda: found(v, inner, indent + 1))
        uses = any(re.search(rf"\b{v}\b", line) for line in made)
        self.emit(indent, f"if let {v} = {expr} {{" if uses else f"if {expr} != nil {{")
        self.lines += made
        rest = self.capture(lambda: otherwise(indent + 1))
        if rest:
            self.emit(indent, "} else {")
            self.lines += rest
        self.emit(indent, "}")

    def lookup(self, name, frames, found, missing, indent):
        """swift-mustache's getChild: `.` is the top of the stack; `.a.b` looks only in the top; `a.b`
        finds `a` up the stack (an absent value, such as a nil optional, lets the search go on) and `b`
        inside it, without going on."""
        if name == ".":
            expr, kind = frames[-1]
            return found(expr, kind, indent)
        top_only = name.startswith(".")
        parts = [part for part in name.split(".") if part]

        def rest(expr, kind, parts, indent):
            if not parts:
                return found(expr, kind, indent)
            child = self.child(expr, kind, parts[0])
            if child is None:
                return missing(indent)
            cexpr, ckind = child
            if ckind[0] == "opt":
                return self.branch(indent, cexpr, ckind[1], lambda v, k, i: rest(v, k, parts[1:], i), missing)
            return rest(cexpr, ckind, parts[1:], indent)

        def search(level, indent):
            if level < 0 or (top_only and level < len(frames) - 1):
                return missing(indent)
            expr, kind = frames[level]
            child = self.child(expr, kind, parts[0])
            if child is None:
                return search(level - 1, indent)
            cexpr, ckind = child
            if ckind[0] == "opt":
                return self.branch(
                    indent, cexpr, ckind[1], lambda v, k, i: rest(v, k, parts[1:], i), lambda i: search(level - 1, i))
            return rest(cexpr, ckind, parts[1:], indent)

        search(len(frames) - 1, indent)

    def nodes(self, nodes, frames, html, indent, depth=0):
        pending = []

        def flush():
            if pending:
                self.emit(indent, f"out.text({swift_literal(''.join(pending))})")
                pending.clear()

        for node in nodes:
            if node[0] == "text":
                pending.append(node[1])
                continue
            flush()
            if node[0] == "var":
                _, name, escaped = node
                self.variable(name, escaped and html, frames, indent)
            elif node[0] == "section":
                self.section(node[1], node[2], frames, html, indent, depth)
            elif node[0] == "inverted":
                self.inverted(node[1], node[2], frames, html, indent, depth)
            elif node[0] == "partial":
                name = node[1]
                if name not in self.templates:
                    raise Refused(f"{self.file}: `{{{{> {name}}}}}` names no Markdown template")
                if depth > 10:
                    raise Refused(f"{self.file}: partials nest more than 10 deep (does `{name}` include itself?)")
                # A partial renders with its own content type: every page template is TEXT.
                self.nodes(self.templates[name], frames, False, indent, depth + 1)
        flush()

    def variable(self, name, escaped, frames, indent):
        def found(expr, kind, indent):
            call = "html" if escaped else "write"
            if kind[0] in ("str", "int", "bool"):
                self.emit(indent, f"out.{call}({expr})")
            elif kind[0] == "cell":
                # A cell writes itself; in the layout, its text is escaped like any other value.
                self.emit(indent, f"out.html({expr}.description)" if escaped else f"{expr}.write(into: &out)")
            else:
                raise Refused(f"{self.file}: `{{{{{name}}}}}` is a {describe(kind)}, which a variable cannot show")

        self.lookup(name, frames, found, lambda indent: None, indent)

    def section(self, name, body, frames, html, indent, depth):
        def found(expr, kind, indent):
            if kind[0] == "arr":
                if kind[1][0] == "opt":
                    raise Refused(f"{self.file}: `{{{{#{name}}}}}` is an array of optionals, which is not compiled")
                self.loop(indent, "for {} in " + expr + " {", body, frames, kind[1], html, depth)
            elif kind[0] == "rows":
                # Made one row at a time, each valid only inside the loop's body (`PageRows`).
                self.loop(indent, expr + ".forEach { {} in", body, frames, kind[1], html, depth)
            elif kind[0] == "bool":
                self.emit(indent, f"if {expr} {{")
                self.nodes(body, frames, html, indent + 1, depth)
                self.emit(indent, "}")
            else:
                # Any other present value renders the section once, with the value on top of the stack.
                self.emit(indent, "do {")
                self.nodes(body, frames + [(expr, kind)], html, indent + 1, depth)
                self.emit(indent, "}")

        self.lookup(name, frames, found, lambda indent: None, indent)

    def loop(self, indent, opening, body, frames, element, html, depth):
        """`opening` ("for {} in xs {") with the element's name, or `_` when the body never names it."""
        v = self.fresh()
        made = self.capture(lambda: self.nodes(body, frames + [(v, element)], html, indent + 1, depth))
        uses = any(re.search(rf"\b{v}\b", line) for line in made)
        self.emit(indent, opening.replace("{}", v if uses else "_", 1))
        self.lines += made
        self.emit(indent, "}")

    def inverted(self, name, body, frames, html, indent, depth):
        def found(expr, kind, indent):
            if kind[0] in ("arr", "rows"):
                # swift-mustache pushes the (empty) array, which names nothing.
                self.emit(indent, f"if {expr}.isEmpty {{")
                self.nodes(body, frames + [(expr, kind)], html, indent + 1, depth)
                self.emit(indent, "}")
            elif kind[0] == "bool":
                self.emit(indent, f"if !{expr} {{")
                self.nodes(body, frames, html, indent + 1, depth)
                self.emit(indent, "}")

        def missing(indent):
            self.emit(indent, "do {")
            self.nodes(body, frames, html, indent + 1, depth)
            self.emit(indent, "}")

        self.lookup(name, frames, found, missing, indent)


def describe(kind):
    return {"arr": "list", "rows": "list", "struct": "structure", "dict": "dictionary", "labels": "dictionary", "root": "page"}.get(kind[0], kind[0])


def source_digest():
    """SHA-256 of what the generated file is made from; GeneratedPagesTests computes the same."""
    digest = hashlib.sha256()
    inputs = [
        ("scripts/generate-pages.py", pathlib.Path(__file__).resolve()), ("Sources/OrderPress/Render/PageModels.swift", MODELS),
        ("Sources/OrderPress/Render/PageCell.swift", CELLS),
    ]
    inputs += [(f"templates/{p.name}", p) for p in sorted(TEMPLATES.iterdir(), key=lambda p: p.name) if p.name.endswith(".mustache")]
    for label, path in inputs:
        digest.update(label.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def main():
    CELL_TYPES.update(read_cells(CELLS.read_text(encoding="utf-8")))
    structs, models = read_models(MODELS.read_text(encoding="utf-8"))
    names = sorted(p.name[:-len(".md.mustache")] for p in TEMPLATES.iterdir() if p.name.endswith(".md.mustache"))
    unmodelled = [name for name in names + [LAYOUT] if name not in models]
    if unmodelled:
        raise Refused(
            "no view model for " + ", ".join(unmodelled) + ": in Sources/OrderPress/Render/PageModels.swift, mark the struct "
            + "each renders (inside `enum PageModels`) with a doc comment line `/// Template: `<name>.md.mustache`.`")
    stray = sorted(set(models) - set(names) - {LAYOUT})
    if stray:
        raise Refused(f"PageModels.swift names templates that are not in templates/: {', '.join(stray)}")
    PAGES = {name: models[name] for name in names}
    pages = {}
    for name in PAGES:
        file = f"templates/{name}.md.mustache"
        pages[name] = parse_template((ROOT / file).read_text(encoding="utf-8"), file)
    layout_file = f"templates/{LAYOUT}.html.mustache"
    layout = parse_template((ROOT / layout_file).read_text(encoding="utf-8"), layout_file)

    compiler = Compiler(structs, pages)
    out = [
        "// Generated by scripts/generate-pages.py from templates/ and PageModels.swift. Do not edit; run `make templates`.",
        "",
        "import Foundation",
        "",
        "/// The built-in templates compiled to Swift: each writes its page's bytes straight from the typed view",
        "/// model, as swift-mustache renders the same template on the same model (`BuiltInPagesTests`).",
        "enum GeneratedPages {",
        "    /// SHA-256 of the generator, PageModels.swift and templates/*.mustache this was made from.",
        f"    static let sourceDigest = \"{source_digest()}\"",
        "",
        "    /// The Markdown templates compiled here, by name.",
        "    static let templates: Set<String> = [" + ", ".join(swift_literal(n) for n in PAGES) + "]",
        "",
        "    /// `model` written by the compiled `template`; nil when the template is not compiled here or",
        "    /// the model is not the one it renders.",
        "    static func markdown(_ model: Any, template: String, labels: LabelTable) -> Data? {",
        "        var out = PageBytes()",
        "        switch template {",
    ]
    for name, model in PAGES.items():
        out += [
            f"        case {swift_literal(name)}:",
            f"            guard let model = model as? PageModels.{model} else {{ return nil }}",
            f"            {camel(name)}(model, labels: labels, into: &out)",
        ]
    out += ["        default:", "            return nil", "        }", "        return out.take()", "    }"]
    for name, model in PAGES.items():
        compiler.file = f"templates/{name}.md.mustache"
        compiler.lines = []
        compiler.counter = 0
        compiler.nodes(pages[name], [("m", ("root", model))], False, 2)
        out += [
            "",
            f"    /// `templates/{name}.md.mustache` on `PageModels.{model}`, with `labels` (Markdown) as `{{{{labels.…}}}}`.",
            f"    static func {camel(name)}(_ m: PageModels.{model}, labels: LabelTable, into out: inout PageBytes) {{",
        ] + compiler.lines + ["    }"]
    compiler.file = layout_file
    compiler.lines = []
    compiler.counter = 0
    compiler.nodes(layout, [("m", ("struct", models[LAYOUT]))], True, 2)
    out += [
        "",
        f"    /// `{layout_file}` on `PageModels.{models[LAYOUT]}`: `{{{{…}}}}` escaped as `LayoutHTML` escapes it.",
        f"    static func {camel(LAYOUT)}(_ m: PageModels.{models[LAYOUT]}, into out: inout PageBytes) {{",
    ] + compiler.lines + ["    }"]
    names = sorted(compiler.labels)
    out += [
        "",
        "    /// The labels the templates show (`{{labels.…}}`), by name.",
        "    enum Label: Int, CaseIterable {",
    ] + [f"        case `{camel(name)}`" for name in names] + [
        "    }",
        "",
        "    /// The catalogue's key of each `Label`, in its order.",
        "    static let labelKeys: [String] = [" + ", ".join(swift_literal(n) for n in names) + "]",
        "",
        "    /// The labels (escaped for Markdown) the compiled templates show, each looked up in the catalogue once",
        "    /// per build rather than by key wherever a page shows it; nil where the catalogue has none, as",
        "    /// swift-mustache renders a missing key.",
        "    struct LabelTable: Sendable {",
        "        private let values: [String?]",
        "",
        "        init(_ labels: [String: String]) {",
        "            values = GeneratedPages.labelKeys.map { labels[$0] }",
        "        }",
        "",
        "        subscript(label: Label) -> String? { values[label.rawValue] }",
        "    }",
        "}",
    ]
    text = "\n".join(out) + "\n"
    if "--check" in sys.argv[1:]:
        if not OUTPUT.exists() or OUTPUT.read_text(encoding="utf-8") != text:
            raise Refused(f"{OUTPUT.relative_to(ROOT)} is not what the templates compile to: run make templates")
        return
    OUTPUT.write_text(text, encoding="utf-8")


# What the generator must refuse, with the words its message must hold: `--self-test` checks each
# (GeneratedPagesTests runs it).
REFUSALS = [
    ("{{#orders}}{{/people}}", "closes no open section"),
    ("{{#orders}}", "never closed"),
    ("{{name(x)}}", "transforms"),
    ("{{>*kind}}", "dynamic partials"),
    ("{{=<% %>=}}", "set delimiters"),
    ("{{<group}}{{/group}}", "inheritance"),
    ("{{$block}}{{/block}}", "inheritance"),
    ("{{% CONTENT_TYPE:HTML}}", "configuration tags"),
    ("a\r\n", "carriage returns"),
    ("x\n  {{> rates}}\n", "indented standalone partial"),
    ("{{> nothing}}", "names no Markdown template"),
    ("{{shopSheet}}", "a variable cannot show"),
    ("{{#shopSheet}}{{.}}{{/shopSheet}}", "a variable cannot show"),
    ("{{orders}}", "a variable cannot show"),
    ("{{labels.Total}}", "not a label name"),
    ("{{> group}}", "nest more than 10 deep"),
]


def self_test():
    CELL_TYPES.update(read_cells(CELLS.read_text(encoding="utf-8")))
    structs, models = read_models(MODELS.read_text(encoding="utf-8"))
    failures = []
    for text, words in REFUSALS:
        compiler = Compiler(structs, {"rates": [], "group": None})
        compiler.file = "test"
        try:
            nodes = parse_template(text, "test")
            if words.startswith("nest"):
                compiler.templates["group"] = nodes
            compiler.nodes(nodes, [("m", ("root", models["group"]))], False, 2)
            failures.append(f"{text!r} compiled; expected a refusal with {words!r}")
        except Refused as error:
            if words not in str(error):
                failures.append(f"{text!r}: {error} (expected {words!r})")
    for line in ["var x: Decimal", "var y: String { name }", "var a = [1]"]:
        try:
            structs_, _ = read_models("enum PageModels {\n    struct T {\n        " + line + "\n    }\n}\n")
            parse_type(structs_["T"][line.split()[1].rstrip(":")], structs_, "T")
            failures.append(f"model line {line!r} read")
        except (Refused, KeyError):
            pass
    if failures:
        sys.exit("generate-pages.py --self-test:\n" + "\n".join(failures))


if __name__ == "__main__":
    try:
        if "--self-test" in sys.argv[1:]:
            self_test()
            sys.exit(0)
        main()
    except Refused as error:
        sys.exit(f"generate-pages.py: {error}")
