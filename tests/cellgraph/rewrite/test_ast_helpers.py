"""rewrite.ast_helpers: AstFinder, AstReplacer, AstFlattener."""
import ast

from cellgraph.rewrite.ast_helpers import AstFinder, AstFlattener, AstReplacer

SOURCE = '''
class Net(Base):
    def construct(self, x):
        y = self.relu(self.dense(x + 1)) * 2
        z = Net.helper(y) if y else y
        return y, z
'''


def test_finder():
    tree = ast.parse(SOURCE)
    assert len(AstFinder(tree).find_all(ast.Call)) == 3
    assert len(AstFinder(tree).find_all((ast.Assign, ast.Return))) == 3


def test_replacer_and_undo():
    tree = ast.parse(SOURCE)
    replacer = AstReplacer(tree)
    replacer.replace_all("Net", "NetOpt")
    text = ast.unparse(tree)
    assert "class NetOpt(Base):" in text and "NetOpt.helper(y)" in text
    replacer.undo_all()
    assert ast.unparse(tree) == ast.unparse(ast.parse(SOURCE))


def test_flattener():
    tree = AstFlattener().transform(ast.parse(SOURCE))
    body = ast.unparse(tree.body[0].body[0]).splitlines()[1:]
    # MindSpore 2.10's flattening of the same method: the branches of `a if c else b` stay
    assert [line.strip() for line in body] == [
        "add_var = x + 1", "dense_var = self.dense(add_var)",
        "relu_var = self.relu(dense_var)", "y = relu_var * 2",
        "z = Net.helper(y) if y else y", "tuple_var = (y, z)", "return tuple_var"]
