package prompt

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"text/template"
	"text/template/parse"
)

// Check checks every template the workflow renders by name against the
// Go type of the data it is given (as registered): every field chain
// ({{.A.B}}, {{$x.A}}, {{(pipeline).A}}) must name exported fields or
// methods that the data has, following range and with into the element's
// and the field's types, and {{template "name" pipeline}} into the named
// template with the pipeline's type; a template called must exist. A map
// or an interface ends the check of a chain (its keys and its dynamic
// type are the data's, not its type's), and so does a function's result.
// Each error names the file and line, and says what the data has.
func (s *Set) Check() error {
	c := s.check()
	return c.err()
}

// Untyped lists the templates of the set that no template rendered by
// name reaches (itself, or by {{template}}), so that [Set.Check] does not
// read them: a template with no registered type. A file that only
// {{define}}s templates is not among them.
func (s *Set) Untyped() []string {
	c := s.check()
	var out []string
	for _, t := range s.t.Templates() {
		if t.Name() == "" || c.reached[t.Name()] || t.Tree == nil || parse.IsEmptyTree(t.Tree.Root) {
			continue
		}
		out = append(out, t.Name())
	}
	slices.Sort(out)
	return out
}

func (s *Set) check() *checker {
	c := &checker{s: s, seen: map[visit]bool{}, reached: map[string]bool{}}
	for _, e := range s.Entries() {
		t := e.Data
		if t == nil {
			t = noDataType
		}
		c.template(nil, nil, e.Name, t)
	}
	return c
}

// checker walks templates' parse trees with the types of their data.
type checker struct {
	s       *Set
	errs    []string
	seen    map[visit]bool
	reached map[string]bool
	cur     string // the template being walked
	// unknown is set once a check stopped at a type it cannot follow (a
	// map, an interface, a function's result): past it, a name may be
	// missing at run time.
	unknown bool
}

type visit struct {
	name string
	dot  reflect.Type
}

// variable is a template variable and its type (nil: unknown).
type variable struct {
	name string
	t    reflect.Type
}

func (c *checker) err() error {
	if len(c.errs) == 0 {
		return nil
	}
	errs := slices.Clone(c.errs)
	slices.Sort(errs)
	errs = slices.Compact(errs)
	out := make([]error, len(errs))
	for i, e := range errs {
		out[i] = errors.New(e)
	}
	return errors.Join(out...)
}

// fail records an error at node n of tree tr.
func (c *checker) fail(tr *parse.Tree, n parse.Node, format string, args ...any) {
	c.errs = append(c.errs, c.where(tr, n)+fmt.Sprintf(format, args...))
}

// where is "PATH:LINE: {{NODE}}: " for node n of tree tr.
func (c *checker) where(tr *parse.Tree, n parse.Node) string {
	if tr == nil || n == nil {
		return ""
	}
	loc, context := tr.ErrorContext(n)
	// loc is "FILE:LINE:COL", FILE the name of the file parsed.
	file, rest, _ := strings.Cut(loc, ":")
	line, _, _ := strings.Cut(rest, ":")
	path := file
	if i := slices.IndexFunc(c.s.files, func(f File) bool { return f.Name == file }); i >= 0 {
		path = c.s.files[i].Path
	}
	if c.s.kept[tr] {
		path = builtinPath(c.s.name, file)
	}
	if !strings.HasPrefix(context, "{{") {
		context = "{{" + context + "}}"
	}
	return fmt.Sprintf("%s:%s: %s: ", path, line, context)
}

// template checks the template name given data of type dot; tr and n are
// where it is called from (nil for a template the workflow renders).
func (c *checker) template(tr *parse.Tree, n parse.Node, name string, dot reflect.Type) {
	t := c.s.t.Lookup(name)
	if t == nil || t.Tree == nil {
		if tr != nil {
			c.fail(tr, n, "no template %q in the %s prompts", name, c.s.name)
		} else {
			c.errs = append(c.errs, fmt.Sprintf("%s: no template %q, which the workflow renders by that name", c.s.name, name))
		}
		return
	}
	c.reached[name] = true
	if c.seen[visit{name, dot}] {
		return
	}
	c.seen[visit{name, dot}] = true
	vars := []variable{{"$", dot}}
	outer := c.cur
	c.cur = name
	c.walk(t.Tree, t.Tree.Root, dot, &vars)
	c.cur = outer
}

func (c *checker) walk(tr *parse.Tree, n parse.Node, dot reflect.Type, vars *[]variable) {
	switch n := n.(type) {
	case *parse.ListNode:
		if n == nil {
			return
		}
		for _, m := range n.Nodes {
			c.walk(tr, m, dot, vars)
		}
	case *parse.ActionNode:
		c.declare(n.Pipe, c.pipe(tr, n.Pipe, dot, *vars), vars)
	case *parse.IfNode:
		c.branch(tr, &n.BranchNode, dot, false, vars)
	case *parse.WithNode:
		c.branch(tr, &n.BranchNode, dot, true, vars)
	case *parse.RangeNode:
		mark := len(*vars)
		t := c.pipe(tr, n.Pipe, dot, *vars)
		key, elem := c.rangeTypes(tr, n.Pipe, t)
		types := []reflect.Type{elem}
		if len(n.Pipe.Decl) == 2 {
			types = []reflect.Type{key, elem}
		}
		if n.Pipe.IsAssign {
			// Variables declared before: they hold the last element
			// after the loop, or what they held.
			for i, d := range n.Pipe.Decl {
				c.assign(d.Ident[0], types[min(i, len(types)-1)], vars)
				c.assign(d.Ident[0], nil, vars)
			}
		} else {
			for i, d := range n.Pipe.Decl {
				*vars = append(*vars, variable{d.Ident[0], types[min(i, len(types)-1)]})
			}
		}
		c.sub(tr, n.List, elem, vars)
		c.sub(tr, n.ElseList, dot, vars)
		*vars = (*vars)[:mark]
	case *parse.TemplateNode:
		t := noDataType
		if n.Pipe != nil {
			t = c.pipe(tr, n.Pipe, dot, *vars)
		}
		c.template(tr, n, n.Name, t)
	}
}

// branch walks an if or a with: with, the list's dot is the pipeline's.
func (c *checker) branch(tr *parse.Tree, n *parse.BranchNode, dot reflect.Type, with bool, vars *[]variable) {
	mark := len(*vars)
	t := c.pipe(tr, n.Pipe, dot, *vars)
	c.declare(n.Pipe, t, vars)
	listDot := dot
	if with {
		listDot = t
	}
	c.sub(tr, n.List, listDot, vars)
	c.sub(tr, n.ElseList, dot, vars)
	*vars = (*vars)[:mark]
}

// sub walks a list that may or may not run: the variables it declares
// end with it, and one it assigns another type is unknown after it.
func (c *checker) sub(tr *parse.Tree, list *parse.ListNode, dot reflect.Type, vars *[]variable) {
	before := slices.Clone(*vars)
	c.walk(tr, list, dot, vars)
	*vars = (*vars)[:len(before)]
	for i, v := range before {
		if (*vars)[i].t != v.t {
			(*vars)[i].t = nil
		}
	}
}

// assign gives the innermost variable name type t.
func (c *checker) assign(name string, t reflect.Type, vars *[]variable) {
	for i := len(*vars) - 1; i >= 0; i-- {
		if (*vars)[i].name == name {
			(*vars)[i].t = t
			return
		}
	}
}

// declare gives the variables a pipeline declares (or assigns) its type.
func (c *checker) declare(p *parse.PipeNode, t reflect.Type, vars *[]variable) {
	if p == nil {
		return
	}
	for _, d := range p.Decl {
		if p.IsAssign {
			c.assign(d.Ident[0], t, vars)
		} else {
			*vars = append(*vars, variable{d.Ident[0], t})
		}
	}
}

// pipe checks a pipeline and returns its type (nil: unknown).
func (c *checker) pipe(tr *parse.Tree, p *parse.PipeNode, dot reflect.Type, vars []variable) reflect.Type {
	if p == nil {
		return nil
	}
	var t reflect.Type
	for _, cmd := range p.Cmds {
		t = c.command(tr, cmd, dot, vars)
	}
	return t
}

var (
	stringType = reflect.TypeFor[string]()
	boolType   = reflect.TypeFor[bool]()
	intType    = reflect.TypeFor[int]()
)

// command checks a command and returns its type.
func (c *checker) command(tr *parse.Tree, cmd *parse.CommandNode, dot reflect.Type, vars []variable) reflect.Type {
	if len(cmd.Args) == 0 {
		return nil
	}
	var args []reflect.Type
	for _, a := range cmd.Args[1:] {
		args = append(args, c.arg(tr, a, dot, vars))
	}
	if id, ok := cmd.Args[0].(*parse.IdentifierNode); ok {
		return funcResult(id.Ident, args)
	}
	return c.arg(tr, cmd.Args[0], dot, vars)
}

// arg checks an operand and returns its type.
func (c *checker) arg(tr *parse.Tree, n parse.Node, dot reflect.Type, vars []variable) reflect.Type {
	switch n := n.(type) {
	case *parse.DotNode:
		return dot
	case *parse.FieldNode:
		return c.chain(tr, n, dot, n.Ident)
	case *parse.VariableNode:
		var t reflect.Type
		for i := len(vars) - 1; i >= 0; i-- {
			if vars[i].name == n.Ident[0] {
				t = vars[i].t
				break
			}
		}
		return c.chain(tr, n, t, n.Ident[1:])
	case *parse.ChainNode:
		return c.chain(tr, n, c.arg(tr, n.Node, dot, vars), n.Field)
	case *parse.PipeNode:
		return c.pipe(tr, n, dot, vars)
	case *parse.IdentifierNode:
		return funcResult(n.Ident, nil)
	case *parse.StringNode:
		return stringType
	case *parse.BoolNode:
		return boolType
	case *parse.NumberNode:
		// As text/template makes a constant a value (idealConstant).
		hexInt := len(n.Text) > 2 && n.Text[0] == '0' && (n.Text[1] == 'x' || n.Text[1] == 'X') && !strings.ContainsAny(n.Text, "pP")
		runeInt := len(n.Text) > 0 && n.Text[0] == '\''
		switch {
		case n.IsComplex:
			return reflect.TypeFor[complex128]()
		case n.IsFloat && !hexInt && !runeInt && strings.ContainsAny(n.Text, ".eEpP"):
			return reflect.TypeFor[float64]()
		case n.IsInt:
			return intType
		}
	}
	return nil // nil: any type it is used as
}

// funcResult is the type of a built-in function's result, where it is
// known.
func funcResult(name string, args []reflect.Type) reflect.Type {
	switch name {
	case "len":
		return intType
	case "print", "printf", "println", "html", "js", "urlquery":
		return stringType
	case "eq", "ne", "lt", "le", "gt", "ge", "not":
		return boolType
	case "index":
		if len(args) == 0 || args[0] == nil {
			return nil
		}
		t := args[0]
		for range args[1:] {
			for t.Kind() == reflect.Pointer {
				t = t.Elem()
			}
			switch t.Kind() {
			case reflect.Slice, reflect.Array, reflect.Map:
				t = t.Elem()
			default:
				return nil
			}
		}
		return t
	}
	return nil // and, or, call, slice: the type of one of their operands, or the function's
}

// chain follows the field or method names idents from type t, as
// text/template evaluates them, and returns the type at the end.
func (c *checker) chain(tr *parse.Tree, n parse.Node, t reflect.Type, idents []string) reflect.Type {
	for _, id := range idents {
		if t == nil {
			c.unknown = true
			return nil
		}
		if t == noDataType {
			c.fail(tr, n, "%s is given no data (as by {{template %q}}, without a pipeline), so it has no field %s", c.cur, c.cur, id)
			return nil
		}
		if m, ok := method(t, id); ok {
			if m.Type.NumOut() == 0 {
				return nil
			}
			t = m.Type.Out(0)
			continue
		}
		has := t // whose methods a template may call
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		switch t.Kind() {
		case reflect.Interface, reflect.Map:
			c.unknown = true
			return nil
		case reflect.Struct:
			f, ok := t.FieldByName(id)
			if ok && f.IsExported() {
				t = f.Type
				continue
			}
			c.fail(tr, n, "%s has no field %s; it has %s", t, id, members(t, has))
			return nil
		default:
			c.fail(tr, n, "%s has no field %s", t, id)
			return nil
		}
	}
	return t
}

// method is t's exported method name. A method of *T on a T is not
// counted: text/template calls it only on a value it can address, which
// the data a workflow passes is not.
func method(t reflect.Type, name string) (reflect.Method, bool) {
	if t.Kind() == reflect.Interface {
		return reflect.Method{}, false
	}
	if m, ok := t.MethodByName(name); ok && m.IsExported() {
		return m, true
	}
	return reflect.Method{}, false
}

// members lists the exported fields of struct type t and the exported
// methods of has (t, or a pointer to it).
func members(t, has reflect.Type) string {
	var names []string
	for _, f := range reflect.VisibleFields(t) {
		if f.IsExported() {
			names = append(names, f.Name)
		}
	}
	for i := range has.NumMethod() {
		if m := has.Method(i); m.IsExported() {
			names = append(names, m.Name)
		}
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// rangeTypes are the key (or index) and element types of ranging over t.
func (c *checker) rangeTypes(tr *parse.Tree, p *parse.PipeNode, t reflect.Type) (key, elem reflect.Type) {
	if t == nil {
		c.unknown = true
		return nil, nil
	}
	if t == noDataType {
		c.fail(tr, p, "%s is given no data (as by {{template %q}}, without a pipeline) to range over", c.cur, c.cur)
		return nil, nil
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		return intType, t.Elem()
	case reflect.Map:
		return t.Key(), t.Elem()
	case reflect.Chan:
		return t.Elem(), t.Elem()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return t, t
	case reflect.Interface, reflect.Func:
		c.unknown = true
		return nil, nil
	}
	c.fail(tr, p, "range can't iterate over %s", t)
	return nil, nil
}

// template1 parses one file on its own, for its parse errors.
func template1(f File) (*template.Template, error) {
	t, err := template.New(f.Name).Parse(f.Text)
	if err != nil {
		return nil, parseError(f, err)
	}
	return t, nil
}

// parseError names the file's path in a parse error, which text/template
// gives as "template: NAME:LINE: what".
func parseError(f File, err error) error {
	msg := strings.TrimPrefix(err.Error(), "template: ")
	// "unclosed action started at NAME:LINE"
	msg = strings.ReplaceAll(msg, " at "+f.Name+":", " at line ")
	if rest, ok := strings.CutPrefix(msg, f.Name+":"); ok {
		return errors.New(f.Path + ":" + rest)
	}
	return errors.New(f.Path + ": " + msg)
}
