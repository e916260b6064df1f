"""MindSpore's submodules of `ops.operations` (`from mindspore.ops.operations.math_ops import
LpNorm`): `math_ops`, `array_ops` and `nn_ops` define the classes composed of other operations;
the classes MindSpore files there that are made elsewhere (from the primitives' declarations,
or in `ops.operations`) join them here, so a name that cellgraph lacks is simply absent."""
from __future__ import annotations

from cellgraph import ops
from cellgraph.primitives.core import PRIMITIVES

MATH_OPS = ["Abs", "Acos", "Acosh", "Add", "AddN", "Addcdiv", "Addcmul", "Angle", "ApproximateEqual", "Asin", "Asinh", "Atan", "Atan2", "Atanh", "BatchMatMul", "Betainc", "BitwiseAnd", "BitwiseOr", "BitwiseXor", "Bucketize", "Cdist", "Ceil", "Cholesky", "Complex", "Conj", "Cos", "Cosh", "Cross", "CumProd", "CumSum", "Cummax", "Cummin", "Digamma", "Div", "DivNoNan", "Eig", "Einsum", "Eps", "Equal", "Erf", "Erfc", "Erfinv", "Exp", "Expm1", "FFTWithSize", "Floor", "FloorDiv", "FloorMod", "Greater", "GreaterEqual", "Heaviside", "Hypot", "Igamma", "Imag", "Inv", "Invert", "IsClose", "IsFinite", "IsInf", "IsNan", "Lerp", "Less", "LessEqual", "Lgamma", "LinSpace", "Log", "Log1p", "LogMatrixDeterminant", "LogicalAnd", "LogicalNot", "LogicalOr", "LogicalXor", "Logit", "LpNorm", "MatMul", "MatrixDeterminant", "MatrixInverse", "MatrixSolve", "Maximum", "Median", "Minimum", "Mod", "Mul", "Neg", "NotEqual", "NPUAllocFloatStatus", "NPUClearFloatStatus", "NPUClearFloatStatusV2", "NPUGetFloatStatus", "NPUGetFloatStatusV2", "Polygamma", "Pow", "Qr", "Real", "RealDiv", "Reciprocal", "ReduceAll", "ReduceAny", "ReduceMax", "ReduceMean", "ReduceMin", "ReduceProd", "ReduceStd", "ReduceSum", "Round", "Rsqrt", "Sign", "Sin", "Sinc", "Sinh", "Sqrt", "STFT", "Square", "SquareSumAll", "SquaredDifference", "Sub", "Svd", "Tan", "Tanh", "Trace", "Trunc", "TruncateDiv", "TruncateMod", "Xdivy", "Xlogy", "Zeta"]

ARRAY_OPS = ["ArgMaxWithValue", "ArgMinWithValue", "Argmax", "Argmin", "BatchToSpace", "BroadcastTo", "Cast", "Col2Im", "Concat", "DType", "DepthToSpace", "Diag", "ExpandDims", "ExtractImagePatches", "Eye", "Fill", "Fills", "Flatten", "Gather", "GatherD", "GatherNd", "GatherV2", "Identity", "Im2Col", "IndexFill", "InvertPermutation", "MaskedFill", "MaskedScatter", "MaskedSelect", "MatrixBandPart", "MatrixDiagV3", "Meshgrid", "NonZero", "Ones", "OnesLike", "Range", "Rank", "Reshape", "ReverseSequence", "ReverseV2", "ScalarToTensor", "ScatterAdd", "ScatterNd", "ScatterNdAdd", "ScatterNdUpdate", "ScatterUpdate", "SearchSorted", "Select", "Shape", "Size", "Slice", "Sort", "SpaceToDepth", "Split", "Squeeze", "Stack", "StridedSlice", "TensorScatterAdd", "TensorScatterDiv", "TensorScatterElements", "TensorScatterMax", "TensorScatterMin", "TensorScatterMul", "TensorScatterSub", "TensorScatterUpdate", "TensorShape", "Tile", "Transpose", "Tril", "Triu", "TupleToArray", "Unique", "UniqueConsecutive", "Unstack", "UnsortedSegmentMax", "UnsortedSegmentMin", "UnsortedSegmentProd", "UnsortedSegmentSum", "Zeros", "ZerosLike"]

NN_OPS = ["AdaptiveAvgPool2D", "Adam", "AdamWeightDecay", "ApplyGradientDescent", "ApplyMomentum", "ApplyRMSProp", "AvgPool", "AvgPool3D", "BatchNorm", "BiasAdd", "BinaryCrossEntropy", "CTCLoss", "CTCLossV2", "Conv2D", "Conv2DBackpropInput", "Conv2DTranspose", "Conv3D", "Conv3DTranspose", "Dropout", "Dropout2D", "Elu", "FastGeLU", "FlashAttentionScore", "GeLU", "GridSampler2D", "GridSampler3D", "HSigmoid", "HSwish", "KLDivLoss", "L2Loss", "L2Normalize", "LayerNorm", "LogSoftmax", "MaxPool", "MaxPool3D", "MaxPoolWithArgmax", "Mish", "MirrorPad", "NLLLoss", "OneHot", "PReLU", "Pad", "PadV3", "ReLU", "ReLU6", "ResizeBilinear", "ResizeNearestNeighbor", "RmsNorm", "SeLU", "Sigmoid", "SigmoidCrossEntropyWithLogits", "SmoothL1Loss", "Softmax", "SoftmaxCrossEntropyWithLogits", "Softplus", "Softsign", "SparseSoftmaxCrossEntropyWithLogits", "TopK"]


def mount() -> None:
    """Give `ops.operations.math_ops`, `.array_ops` and `.nn_ops` (which define the classes
    composed of other operations) MindSpore's classes of theirs that are defined elsewhere
    (derived from the primitives' declarations, or hand-written in `ops.operations`)."""
    operations = ops.operations
    for name, names in (("math_ops", MATH_OPS), ("array_ops", ARRAY_OPS), ("nn_ops", NN_OPS)):
        module = getattr(operations, name)
        declared = [p.label for p in PRIMITIVES.values() if p.public and p.ops_module == name]
        for n in (*names, *declared):
            if hasattr(operations, n) and n not in vars(module):
                setattr(module, n, getattr(operations, n))
                module.__all__.append(n)
