"""Where MindSpore files the primitive classes that cellgraph derives from declarations (the
public primitives' classes and the core's `export_class` registrations): each
`ops.operations` submodule named here defines its classes with `derive.generate_classes`. A
declaration's own `ops_module` takes precedence; a class written by hand is defined in its
module and needs no entry. A name cellgraph lacks is simply never made."""
from __future__ import annotations

MATH_OPS = (
    "Abs", "Acos", "Acosh", "Add", "Addcdiv", "Angle", "ApproximateEqual", "Asin", "Asinh",
    "Atan", "Atan2", "Atanh", "Betainc", "BitwiseAnd", "BitwiseOr", "BitwiseXor", "Bucketize",
    "Ceil", "Cholesky", "Complex", "Conj", "Cos", "Cosh", "CumProd", "Cummax", "Cummin",
    "Digamma", "Div", "DivNoNan", "Eig", "Equal", "Erf", "Erfc", "Erfinv", "Exp", "Expm1",
    "FFTWithSize", "Floor", "FloorDiv", "FloorMod", "Greater", "GreaterEqual", "Heaviside",
    "Hypot", "Igamma", "Imag", "Inv", "Invert", "IsClose", "Lerp", "Less", "LessEqual", "Lgamma",
    "Log", "Log1p", "LogMatrixDeterminant", "LogicalAnd", "LogicalNot", "LogicalOr", "LogicalXor",
    "MatrixDeterminant", "MatrixInverse", "MatrixSolve", "Maximum", "Median", "Minimum", "Mod",
    "Mul", "NPUAllocFloatStatus", "NPUClearFloatStatus", "NPUClearFloatStatusV2",
    "NPUGetFloatStatus", "NPUGetFloatStatusV2", "Neg", "NotEqual", "Polygamma", "Pow", "Qr",
    "Real", "RealDiv", "Reciprocal", "Round", "Rsqrt", "Sign", "Sin", "Sinc", "Sinh", "Sqrt",
    "Square", "SquareSumAll", "SquaredDifference", "Sub", "Svd", "Tan", "Tanh", "Trace", "Trunc",
    "TruncateDiv", "TruncateMod", "Xdivy", "Xlogy", "Zeta",
)

ARRAY_OPS = (
    "Argmin", "BatchToSpace", "Col2Im", "DepthToSpace", "Diag", "Fills", "GatherNd", "GatherV2",
    "IndexFill", "InvertPermutation", "MaskedSelect", "MatrixBandPart", "MatrixDiagV3",
    "Meshgrid", "NonZero", "OnesLike", "ScatterNd", "SearchSorted", "Select", "Sort",
    "SpaceToDepth", "TensorScatterAdd", "TensorScatterDiv", "TensorScatterElements",
    "TensorScatterMax", "TensorScatterMin", "TensorScatterMul", "TensorScatterSub",
    "TensorScatterUpdate", "Tril", "Triu", "Unique", "UniqueConsecutive", "ZerosLike",
)

NN_OPS = (
    "AdaptiveAvgPool2D", "AvgPool3D", "CTCLoss", "Conv3DTranspose", "FastGeLU", "HSigmoid",
    "MaxPoolWithArgmax", "MirrorPad", "Mish", "PReLU", "ReLU", "ReLU6", "ResizeBilinear", "SeLU",
    "Sigmoid", "SmoothL1Loss", "Softsign", "TopK",
)

MODULE_OF = {name: module for module, names in (("math_ops", MATH_OPS),
                                                  ("array_ops", ARRAY_OPS),
                                                  ("nn_ops", NN_OPS))
             for name in names}
