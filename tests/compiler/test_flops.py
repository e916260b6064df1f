"""compiler/flops.graph_flops on hand-written graphs: 2 * |output| * K for a matrix product,
2 * |dout| * C_in/group * kh * kw for a convolution and each of its gradients."""
from cellgraph.compiler.flops import graph_flops
from cellgraph.compiler.ir_parser import parse_ir


def test_matrix_products():
    graph = parse_ir("""
graph @f(%x: f32[8,3], %w: f32[3,5], %b: f32[4,5,2]) -> f32[8,5] {
  %1 = matmul(%x, %w) : f32[8,5]
  %2 = matmul(%x, %1) {transpose_a=True} : f32[3,5]
  %3 = add(%1, %1) : f32[8,5]
  return %3
}
""")
    assert graph_flops(graph) == (2.0 * 8 * 5 * 3 + 2.0 * 3 * 5 * 8, False)


def test_convolutions():
    graph = parse_ir("""
graph @f(%x: f32[2,3,8,8], %w: f32[4,3,3,3], %d: f32[2,4,6,6]) -> f32[2,4,6,6] {
  %1 = conv2d(%x, %w) {stride=(1, 1), pad=(0, 0, 0, 0), dilation=(1, 1), group=1} : f32[2,4,6,6]
  %2 = conv2d_backprop_filter(%x, %d) {w_shape=(4, 3, 3, 3), stride=(1, 1), pad=(0, 0, 0, 0), dilation=(1, 1), group=1} : f32[4,3,3,3]
  return %1
}
""")
    per = 2.0 * (2 * 4 * 6 * 6) * (3 * 3 * 3)
    assert graph_flops(graph) == (2 * per, False)


def test_unknown_sizes_are_reported():
    graph = parse_ir("""
graph @f(%x: f32[?,3], %w: f32[3,5]) -> f32[?,5] {
  %1 = matmul(%x, %w) : f32[?,5]
  return %1
}
""")
    assert graph_flops(graph) == (0.0, True)
