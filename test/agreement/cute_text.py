"""CuTe notation (int-tuples, layouts, tilers) read into Python values and written as C++ types.

Shared by the generator of the agreement tests. An int-tuple is an int or a tuple of
int-tuples; a layout is (shape, stride); a tiler is a list of layouts.
"""


class Reader:
    def __init__(self, text):
        self.text, self.pos = text, 0

    def peek(self):
        return self.text[self.pos] if self.pos < len(self.text) else ''

    def expect(self, c):
        if self.peek() != c:
            raise ValueError(f"expected {c!r} at {self.pos} in {self.text!r}")
        self.pos += 1

    def int_tuple(self):
        if self.peek() == '(':
            self.pos += 1
            items = [self.int_tuple()]
            while self.peek() == ',':
                self.pos += 1
                items.append(self.int_tuple())
            self.expect(')')
            return tuple(items)
        start = self.pos
        if self.peek() in '-_':
            self.pos += 1
        while self.peek().isdigit():
            self.pos += 1
        return int(self.text[start:self.pos].lstrip('_'))

    def layout_or_int(self):
        shape = self.int_tuple()
        if self.peek() == ':':
            self.pos += 1
            return (shape, self.int_tuple())
        if isinstance(shape, int):  # a plain integer n in a tiler: the layout n:1, given as an integer
            return shape
        raise ValueError(f"a layout needs a stride: {self.text!r}")

    def argument(self):
        """A layout, a tiler [T0,T1,...] (returned as a list), or a plain integer."""
        if self.peek() == '[':
            self.pos += 1
            items = [self.layout_or_int()]
            while self.peek() == ',':
                self.pos += 1
                items.append(self.layout_or_int())
            self.expect(']')
            return items
        shape = self.int_tuple()
        if self.peek() == ':':
            self.pos += 1
            return (shape, self.int_tuple())
        return shape


def parse(text):
    r = Reader(text)
    v = r.argument()
    if r.pos != len(text):
        raise ValueError(f"trailing text in {text!r}")
    return v


def leaf_type(v, dynamic):
    return 'int' if dynamic else f'C<{v}>'


def int_tuple_type(t, dynamic=False):
    if isinstance(t, tuple):
        return 'tuple<' + ','.join(int_tuple_type(x, dynamic) for x in t) + '>'
    return leaf_type(t, dynamic)


def int_tuple_value(t):
    """A C++ expression building the run-time int-tuple (all leaves int)."""
    if isinstance(t, tuple):
        return 'make_tuple(' + ','.join(int_tuple_value(x) for x in t) + ')'
    return str(t)


def layout_type(layout, dyn_shape=False, dyn_stride=False):
    s, d = layout
    return f'Layout<{int_tuple_type(s, dyn_shape)},{int_tuple_type(d, dyn_stride)}>'


def layout_expr(layout, dyn_shape=False, dyn_stride=False):
    """A C++ expression of the layout; static parts as types, run-time parts as values."""
    s, d = layout
    if not dyn_shape and not dyn_stride:
        return layout_type(layout) + '{}'
    se = int_tuple_value(s) if dyn_shape else int_tuple_type(s) + '{}'
    de = int_tuple_value(d) if dyn_stride else int_tuple_type(d) + '{}'
    return f'make_layout({se},{de})'




def is_tiler(x):
    return isinstance(x, list)


def tiler_type(tiler):
    """A static tiler as the type of make_tile(...); integer elements as C<n>."""
    return 'tuple<' + ','.join(f'C<{t}>' if isinstance(t, int) else layout_type(t) for t in tiler) + '>'


def tiler_expr(tiler, dyn_shape=False, dyn_stride=False):
    if not dyn_shape and not dyn_stride:
        return tiler_type(tiler) + '{}'
    return 'make_tile(' + ','.join(argument_expr(t, dyn_shape, dyn_stride) for t in tiler) + ')'


def argument_expr(arg, dyn_shape=False, dyn_stride=False):
    """Layout, tiler or integer argument as a C++ expression."""
    if is_tiler(arg):
        return tiler_expr(arg, dyn_shape, dyn_stride)
    if isinstance(arg, int):
        return str(arg) if dyn_shape else f'C<{arg}>{{}}'
    return layout_expr(arg, dyn_shape, dyn_stride)
