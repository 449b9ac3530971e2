//! The parameter catalogue: the 74 abstract operations of Saavedra-Barrera's table 4.11, numbered as
//! there, plus the derived ARR4 and ARRN (Saavedra-Barrera's section 4.2.4).

use serde::{Deserialize, Serialize};
use std::fmt;

/// The data type an operation works on (Saavedra-Barrera's tables 4.2-4.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DataType {
    Real,
    Integer,
    Logical,
    /// Not tied to a data type (calls, branches, loops, array addressing).
    None,
}

/// Single or double precision; integers and logicals are "single" in Saavedra-Barrera's tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Precision {
    Single,
    Double,
    None,
}

/// Where the operands live: local variables or COMMON blocks (Saavedra-Barrera's section 4.2.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StorageClass {
    Local,
    Global,
    None,
}

/// The kind of operation a parameter measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Operation {
    Store,
    Add,
    Multiply,
    Divide,
    /// X ** I for reals; I ** 2 for integers.
    PowerInteger,
    /// X ** Y for reals; I ** J for integers.
    PowerGeneral,
    MemoryTransfer,
    LogicalAndOr,
    Compare,
    ProcedureCall,
    ArgumentLoad,
    ArrayReference1,
    ArrayReference2,
    ArrayReference3,
    ArrayReference4,
    ArrayReferenceN,
    IndexAdd,
    Goto,
    ComputedGoto,
    LoopInitStep1,
    LoopIterationStep1,
    LoopInitStepN,
    LoopIterationStepN,
    /// A conditional branch the CPU predicted wrong (opcost's refinement, rule 15).
    BranchMiss,
    /// A value or element reached through a dummy argument's address (rule 16).
    DummyAccess,
    /// One machine instruction of a loop body issued at the CPU's sustained rate (rule 17).
    InstructionIssue,
    /// An integer division by a compile-time constant on a dependence chain (rule 14): the
    /// compiler's multiply-and-shift sequence, longer than one multiplication.
    DivideByConstant,
    /// An integer MOD by a compile-time constant on a dependence chain (rule 14): the
    /// division's sequence, a multiplication back and a subtraction.
    RemainderByConstant,
    /// An integer or logical constant stored into an element of a large array (rule 18):
    /// what the compiler's immediate store adds to a store of a variable there.
    ConstantStoreLarge,
    Exp,
    Log,
    Sin,
    Tan,
    Sqrt,
    /// MOD of REAL or DOUBLE PRECISION operands: a call of the library's fmod, whose time
    /// grows with the quotient's magnitude (opcost's refinement, rule 9).
    Remainder,
    /// One quotient bit of a DOUBLE PRECISION MOD beyond the bits of MODD's test (rule 9b):
    /// glibc's fmod takes one step of shift and subtract per bit of `ilogb(x) - ilogb(y)`.
    RemainderBit,
    /// The modulus of a complex value, `CABS`: a call of the library's hypot, which scales
    /// its arguments to avoid overflow (rule 13a).
    ComplexAbs,
    /// A reference to INDEX: the call of the library's string search, whatever it scans
    /// (rule 23).
    IndexCall,
    /// One character position INDEX tries as the start of its substring (rule 23): the
    /// library compares the substring's first character there, and the following ones while
    /// they match.
    IndexScan,
    /// A position where INDEX's compare of the substring's first character goes the other
    /// way than the predictor guessed (rule 23b): where the text decides it, the library's
    /// branch mispredicts.
    IndexMiss,
    /// A concatenation of character strings whose length the compiler does not know (rule
    /// 13b): gfortran allocates its result on the heap, calls `_gfortran_concat_string` and
    /// frees it once the statement has moved the result where it goes.
    Concatenation,
    /// A character assignment of strings (rule 13c): gfortran calls memmove, and memset to
    /// pad with blanks where the value is shorter than the target.
    CharacterMove,
    /// A compare of character strings (rule 13c): gfortran calls memcmp (equal lengths it
    /// knows) or `_gfortran_compare_string`.
    CharacterCompare,
    /// A REAL or DOUBLE PRECISION function's result on its way back to the reference, on a
    /// chain (rule 14b): at -O0 gfortran returns it through the callee's frame and moves it
    /// between the floating-point and integer registers.
    FunctionResult,
    /// A mispredicted branch on the quadrant of a sine or cosine's argument (rule 24): the
    /// library reduces the argument by a quarter period and picks its polynomial and sign by
    /// the quadrant's two low bits.
    QuadrantMiss,
    /// A DOUBLE PRECISION sine or cosine whose argument the library reduces by a multiple of
    /// a quarter period first (rule 24b): glibc's double sine and cosine evaluate arguments
    /// below 2.426265 in magnitude directly and reduce larger ones (`reduce_sincos`).
    SineReduction,
    /// A conversion between integer and floating point or between REAL and DOUBLE
    /// PRECISION by INT, REAL, DBLE and their specific names (rule 25): one instruction
    /// (cvtsi2sd, cvttsd2si, cvtss2sd and the like).
    Convert,
    /// An element's load whose subscript is computed on a chain (rule 14c): the chain waits
    /// for the address and then for the load from the cache.
    AddressedLoad,
    /// An integer addition of a constant made in memory on a chain (rule 14d: `X = X + 1`
    /// compiles at -O0 to `addl $1, X`, which a CPU may forward faster than an addition of a
    /// register into memory).
    AddConstantInPlace,
    /// An integer addition on a chain computed in a register between a load and a store
    /// (rule 14d: `J = I + K`, or any addition inside an expression).
    AddInRegister,
    /// A DO loop's iteration on the chain of its DO variable (rule 27): at -O0 the variable
    /// lives in memory, and each iteration's increment waits for the last one's store.
    DoIncrement,
    /// One argument of MIN or MAX beyond the first on a chain (rule 14e): gfortran -O0 folds
    /// the arguments left to right, a compare and a conditional move for integers, one
    /// MAXSD/MINSD (MAXSS/MINSS) for reals.
    MinMax,
    /// An integer stored into an array element and loaded back by the chain's next link, an
    /// addition in between (rule 14f): the element's computed address takes the store-to-load
    /// forwarding path, where a scalar in the frame may be renamed.
    ElementTransfer,
    /// The instructions an out-of-order core keeps in flight on a loop's code (rule 19): a
    /// count, not a time.
    Window,
    /// One instruction of a loop body that loads or stores, issued at the rate the CPU's
    /// memory pipes sustain (rule 17).
    MemoryIssue,
    /// NINT, IDNINT, ANINT or DNINT: rounding to the nearest whole number, a call of the C
    /// library's lround or round at every optimization level (rule 32).
    Round,
}

impl Operation {
    /// Short name as in Saavedra-Barrera's tables.
    pub fn label(self) -> &'static str {
        match self {
            Operation::Store => "store",
            Operation::Add => "addition",
            Operation::Multiply => "multiplication",
            Operation::Divide => "division",
            Operation::PowerInteger => "exponent, integer power",
            Operation::PowerGeneral => "exponent, general power",
            Operation::MemoryTransfer => "memory transfer",
            Operation::LogicalAndOr => "logical AND/OR",
            Operation::Compare => "compare",
            Operation::ProcedureCall => "procedure call",
            Operation::ArgumentLoad => "argument load",
            Operation::ArrayReference1 => "array, 1 dimension",
            Operation::ArrayReference2 => "array, 2 dimensions",
            Operation::ArrayReference3 => "array, 3 dimensions",
            Operation::ArrayReference4 => "array, 4 dimensions",
            Operation::ArrayReferenceN => "array, 5+ dimensions",
            Operation::IndexAdd => "addition in array index",
            Operation::Goto => "unconditional GO TO",
            Operation::ComputedGoto => "computed GO TO",
            Operation::LoopInitStep1 => "DO init, step 1",
            Operation::LoopIterationStep1 => "DO iteration, step 1",
            Operation::LoopInitStepN => "DO init, step n",
            Operation::LoopIterationStepN => "DO iteration, step n",
            Operation::BranchMiss => "mispredicted IF branch",
            Operation::DummyAccess => "access through a dummy argument",
            Operation::InstructionIssue => "instruction issue in a loop body",
            Operation::DivideByConstant => "division by a constant",
            Operation::RemainderByConstant => "MOD by a constant",
            Operation::ConstantStoreLarge => "constant stored into a large array",
            Operation::Exp => "exponential",
            Operation::Log => "logarithm",
            Operation::Sin => "sine",
            Operation::Tan => "tangent",
            Operation::Sqrt => "square root",
            Operation::Remainder => "remainder (MOD of reals, fmod)",
            Operation::RemainderBit => "fmod step (a quotient bit) beyond MODD's 10 a call",
            Operation::ComplexAbs => "modulus of a complex (CABS, hypot)",
            Operation::IndexCall => "INDEX call (string search)",
            Operation::IndexScan => "INDEX, one position scanned",
            Operation::IndexMiss => "INDEX, first-character compare mispredicted",
            Operation::Concatenation => "character concatenation (//) and its temporary",
            Operation::CharacterMove => "character assignment of a string (memmove)",
            Operation::CharacterCompare => "character compare of strings (memcmp)",
            Operation::FunctionResult => "function result returned",
            Operation::QuadrantMiss => "sine or cosine quadrant branch mispredicted",
            Operation::SineReduction => "sine or cosine argument reduced (beyond 2.43)",
            Operation::Convert => "type conversion (INT, REAL, DBLE)",
            Operation::AddressedLoad => "element load at a computed address",
            Operation::AddConstantInPlace => "addition of a constant in memory (X = X + 1)",
            Operation::AddInRegister => "addition in a register (J = I + K)",
            Operation::DoIncrement => "DO variable's increment (a DO loop iteration)",
            Operation::MinMax => "MIN or MAX argument",
            Operation::ElementTransfer => "array element stored and loaded back",
            Operation::Window => "instructions in flight (out-of-order window)",
            Operation::MemoryIssue => "memory access issue in a loop body",
            Operation::Round => "rounding to the nearest (NINT, ANINT)",
        }
    }
}

/// One region of Saavedra-Barrera's table 4.11 (numbered as there; 13 is opcost's).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Region(pub u8);

impl Region {
    /// The latency region added by opcost's model refinement (not in Saavedra-Barrera).
    pub const LATENCY: Region = Region(13);

    pub const ALL: [Region; 13] = [
        Region(1),
        Region(2),
        Region(3),
        Region(4),
        Region(5),
        Region(6),
        Region(7),
        Region(8),
        Region(9),
        Region(10),
        Region(11),
        Region(12),
        Region(13),
    ];

    /// Title of the region, as in Saavedra-Barrera's table 4.11.
    pub fn title(self) -> &'static str {
        match self.0 {
            1 => "real single, local operands",
            2 => "real double, local operands",
            3 => "integer, local operands",
            4 => "real single, global operands",
            5 => "real double, global operands",
            6 => "integer, global operands",
            7 => "logical and compare",
            8 => "procedure call and arguments",
            9 => "array references",
            10 => "branches and DO loops",
            11 => "intrinsic functions, single",
            12 => "intrinsic functions, double",
            13 => "dependency latencies (opcost refinement)",
            _ => "unknown region",
        }
    }
}

impl fmt::Display for Region {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "region {}: {}", self.0, self.title())
    }
}

/// The static description of one parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ParamDef {
    pub param: Param,
    /// Number in Saavedra-Barrera's table 4.11 (1-74); derived parameters get 75 and 76.
    pub number: u8,
    pub mnemonic: &'static str,
    pub region: Region,
    pub operation: Operation,
    pub data_type: DataType,
    pub precision: Precision,
    pub storage: StorageClass,
    /// Derived parameters are computed from measured ones, not measured (ARR4, ARRN).
    pub derived: bool,
}

impl ParamDef {
    pub fn description(&self) -> String {
        let mut s = self.operation.label().to_string();
        match (self.data_type, self.precision) {
            (DataType::Real, Precision::Single) => s.push_str(", real single"),
            (DataType::Real, Precision::Double) => s.push_str(", real double"),
            (DataType::Integer, _) => s.push_str(", integer"),
            (DataType::Logical, _) => s.push_str(", logical"),
            _ => {}
        }
        match self.storage {
            StorageClass::Local => s.push_str(", local"),
            StorageClass::Global => s.push_str(", global"),
            StorageClass::None => {}
        }
        s
    }
}

macro_rules! catalogue {
    ($( $variant:ident = $num:literal, $region:literal, $op:ident, $dt:ident, $prec:ident, $st:ident, $derived:literal; )*) => {
        /// A parameter of the machine model, by its Saavedra-Barrera mnemonic.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        pub enum Param { $( $variant, )* }

        impl Param {
            /// Every parameter in table order, the derived ARR4 and ARRN last.
            pub const ALL: &'static [Param] = &[ $( Param::$variant, )* ];

            /// The catalogue entry of this parameter.
            pub fn def(self) -> &'static ParamDef {
                &CATALOGUE[self as usize]
            }
        }

        /// The catalogue, indexed by `Param as usize`.
        pub static CATALOGUE: &[ParamDef] = &[ $( ParamDef {
            param: Param::$variant,
            number: $num,
            mnemonic: stringify!($variant),
            region: Region($region),
            operation: Operation::$op,
            data_type: DataType::$dt,
            precision: Precision::$prec,
            storage: StorageClass::$st,
            derived: $derived,
        }, )* ];
    };
}

catalogue! {
    SRSL = 1, 1, Store, Real, Single, Local, false;
    ARSL = 2, 1, Add, Real, Single, Local, false;
    MRSL = 3, 1, Multiply, Real, Single, Local, false;
    DRSL = 4, 1, Divide, Real, Single, Local, false;
    ERSL = 5, 1, PowerInteger, Real, Single, Local, false;
    XRSL = 6, 1, PowerGeneral, Real, Single, Local, false;
    TRSL = 7, 1, MemoryTransfer, Real, Single, Local, false;
    SRDL = 8, 2, Store, Real, Double, Local, false;
    ARDL = 9, 2, Add, Real, Double, Local, false;
    MRDL = 10, 2, Multiply, Real, Double, Local, false;
    DRDL = 11, 2, Divide, Real, Double, Local, false;
    ERDL = 12, 2, PowerInteger, Real, Double, Local, false;
    XRDL = 13, 2, PowerGeneral, Real, Double, Local, false;
    TRDL = 14, 2, MemoryTransfer, Real, Double, Local, false;
    SISL = 15, 3, Store, Integer, Single, Local, false;
    AISL = 16, 3, Add, Integer, Single, Local, false;
    MISL = 17, 3, Multiply, Integer, Single, Local, false;
    DISL = 18, 3, Divide, Integer, Single, Local, false;
    EISL = 19, 3, PowerInteger, Integer, Single, Local, false;
    XISL = 20, 3, PowerGeneral, Integer, Single, Local, false;
    TISL = 21, 3, MemoryTransfer, Integer, Single, Local, false;
    SRSG = 22, 4, Store, Real, Single, Global, false;
    ARSG = 23, 4, Add, Real, Single, Global, false;
    MRSG = 24, 4, Multiply, Real, Single, Global, false;
    DRSG = 25, 4, Divide, Real, Single, Global, false;
    ERSG = 26, 4, PowerInteger, Real, Single, Global, false;
    XRSG = 27, 4, PowerGeneral, Real, Single, Global, false;
    TRSG = 28, 4, MemoryTransfer, Real, Single, Global, false;
    SRDG = 29, 5, Store, Real, Double, Global, false;
    ARDG = 30, 5, Add, Real, Double, Global, false;
    MRDG = 31, 5, Multiply, Real, Double, Global, false;
    DRDG = 32, 5, Divide, Real, Double, Global, false;
    ERDG = 33, 5, PowerInteger, Real, Double, Global, false;
    XRDG = 34, 5, PowerGeneral, Real, Double, Global, false;
    TRDG = 35, 5, MemoryTransfer, Real, Double, Global, false;
    SISG = 36, 6, Store, Integer, Single, Global, false;
    AISG = 37, 6, Add, Integer, Single, Global, false;
    MISG = 38, 6, Multiply, Integer, Single, Global, false;
    DISG = 39, 6, Divide, Integer, Single, Global, false;
    EISG = 40, 6, PowerInteger, Integer, Single, Global, false;
    XISG = 41, 6, PowerGeneral, Integer, Single, Global, false;
    TISG = 42, 6, MemoryTransfer, Integer, Single, Global, false;
    ANDL = 43, 7, LogicalAndOr, Logical, None, Local, false;
    CRSL = 44, 7, Compare, Real, Single, Local, false;
    CRDL = 45, 7, Compare, Real, Double, Local, false;
    CISL = 46, 7, Compare, Integer, Single, Local, false;
    ANDG = 47, 7, LogicalAndOr, Logical, None, Global, false;
    CRSG = 48, 7, Compare, Real, Single, Global, false;
    CRDG = 49, 7, Compare, Real, Double, Global, false;
    CISG = 50, 7, Compare, Integer, Single, Global, false;
    PROC = 51, 8, ProcedureCall, None, None, None, false;
    AGRS = 52, 8, ArgumentLoad, Real, Single, None, false;
    AGRD = 53, 8, ArgumentLoad, Real, Double, None, false;
    AGIS = 54, 8, ArgumentLoad, Integer, Single, None, false;
    ARR1 = 55, 9, ArrayReference1, None, None, None, false;
    ARR2 = 56, 9, ArrayReference2, None, None, None, false;
    ARR3 = 57, 9, ArrayReference3, None, None, None, false;
    IADD = 58, 9, IndexAdd, Integer, Single, None, false;
    GOTO = 59, 10, Goto, None, None, None, false;
    GCOM = 60, 10, ComputedGoto, None, None, None, false;
    LOIN = 61, 10, LoopInitStep1, None, None, None, false;
    LOOV = 62, 10, LoopIterationStep1, None, None, None, false;
    LOIX = 63, 10, LoopInitStepN, None, None, None, false;
    LOOX = 64, 10, LoopIterationStepN, None, None, None, false;
    EXPS = 65, 11, Exp, Real, Single, Local, false;
    LOGS = 66, 11, Log, Real, Single, Local, false;
    SINS = 67, 11, Sin, Real, Single, Local, false;
    TANS = 68, 11, Tan, Real, Single, Local, false;
    SQRS = 69, 11, Sqrt, Real, Single, Local, false;
    EXPD = 70, 12, Exp, Real, Double, Local, false;
    LOGD = 71, 12, Log, Real, Double, Local, false;
    SIND = 72, 12, Sin, Real, Double, Local, false;
    TAND = 73, 12, Tan, Real, Double, Local, false;
    SQRD = 74, 12, Sqrt, Real, Double, Local, false;
    ARR4 = 75, 9, ArrayReference4, None, None, None, true;
    ARRN = 76, 9, ArrayReferenceN, None, None, None, true;
    QTRS = 77, 13, MemoryTransfer, Real, Single, Local, false;
    QTRD = 78, 13, MemoryTransfer, Real, Double, Local, false;
    QTIS = 79, 13, MemoryTransfer, Integer, Single, Local, false;
    QARS = 80, 13, Add, Real, Single, Local, false;
    QARD = 81, 13, Add, Real, Double, Local, false;
    QAIS = 82, 13, Add, Integer, Single, Local, false;
    QMRS = 83, 13, Multiply, Real, Single, Local, false;
    QMRD = 84, 13, Multiply, Real, Double, Local, false;
    QMIS = 85, 13, Multiply, Integer, Single, Local, false;
    QDRS = 86, 13, Divide, Real, Single, Local, false;
    QDRD = 87, 13, Divide, Real, Double, Local, false;
    QDIS = 88, 13, Divide, Integer, Single, Local, false;
    QERS = 89, 13, PowerInteger, Real, Single, Local, false;
    QERD = 90, 13, PowerInteger, Real, Double, Local, false;
    QEIS = 91, 13, PowerInteger, Integer, Single, Local, false;
    QXRS = 92, 13, PowerGeneral, Real, Single, Local, false;
    QXRD = 93, 13, PowerGeneral, Real, Double, Local, false;
    QXIS = 94, 13, PowerGeneral, Integer, Single, Local, false;
    QEXS = 95, 13, Exp, Real, Single, Local, false;
    QLGS = 96, 13, Log, Real, Single, Local, false;
    QSNS = 97, 13, Sin, Real, Single, Local, false;
    QTNS = 98, 13, Tan, Real, Single, Local, false;
    QSQS = 99, 13, Sqrt, Real, Single, Local, false;
    QEXD = 100, 13, Exp, Real, Double, Local, false;
    QLGD = 101, 13, Log, Real, Double, Local, false;
    QSND = 102, 13, Sin, Real, Double, Local, false;
    QTND = 103, 13, Tan, Real, Double, Local, false;
    QSQD = 104, 13, Sqrt, Real, Double, Local, false;
    BMIS = 105, 10, BranchMiss, None, None, None, false;
    DUMA = 106, 8, DummyAccess, None, None, None, false;
    BMIR = 107, 10, BranchMiss, Real, None, None, false;
    INST = 108, 10, InstructionIssue, None, None, None, false;
    QCIS = 109, 13, DivideByConstant, Integer, Single, Local, false;
    QRIS = 110, 13, RemainderByConstant, Integer, Single, Local, false;
    CSTA = 111, 9, ConstantStoreLarge, None, None, None, false;
    MODS = 112, 11, Remainder, Real, Single, Local, false;
    MODD = 113, 12, Remainder, Real, Double, Local, false;
    QMDS = 114, 13, Remainder, Real, Single, Local, false;
    QMDD = 115, 13, Remainder, Real, Double, Local, false;
    WIND = 116, 10, Window, None, None, None, false;
    MEMO = 117, 10, MemoryIssue, None, None, None, false;
    CABS = 118, 11, ComplexAbs, Real, Single, Local, false;
    CABD = 119, 12, ComplexAbs, Real, Double, Local, false;
    QCBS = 120, 13, ComplexAbs, Real, Single, Local, false;
    QCBD = 121, 13, ComplexAbs, Real, Double, Local, false;
    INDX = 122, 11, IndexCall, None, None, None, false;
    SCAN = 123, 11, IndexScan, None, None, None, false;
    QFRS = 124, 13, FunctionResult, Real, Single, Local, false;
    QFRD = 125, 13, FunctionResult, Real, Double, Local, false;
    BMSN = 126, 10, QuadrantMiss, None, None, None, false;
    CNVT = 127, 10, Convert, None, None, None, false;
    QCNV = 128, 13, Convert, None, None, None, false;
    QADR = 129, 13, AddressedLoad, None, None, None, false;
    QAIC = 130, 13, AddConstantInPlace, Integer, Single, Local, false;
    QAIR = 131, 13, AddInRegister, Integer, Single, Local, false;
    QDOV = 132, 13, DoIncrement, None, None, None, false;
    QMXS = 133, 13, MinMax, Real, Single, Local, false;
    QMXD = 134, 13, MinMax, Real, Double, Local, false;
    QMXI = 135, 13, MinMax, Integer, Single, Local, false;
    QTEI = 136, 13, ElementTransfer, Integer, Single, Local, false;
    SRDD = 137, 12, SineReduction, Real, Double, Local, false;
    RNDS = 138, 11, Round, Real, Single, Local, false;
    RNDD = 139, 12, Round, Real, Double, Local, false;
    QRNS = 140, 13, Round, Real, Single, Local, false;
    QRND = 141, 13, Round, Real, Double, Local, false;
    SCNM = 142, 11, IndexMiss, None, None, None, false;
    CHCC = 143, 11, Concatenation, None, None, None, false;
    CHAS = 144, 11, CharacterMove, None, None, None, false;
    CHCM = 145, 11, CharacterCompare, None, None, None, false;
    MQBD = 146, 12, RemainderBit, Real, Double, Local, false;
}

/// Number of parameters of Saavedra-Barrera's table 4.11.
pub const SEED_COUNT: usize = 74;

/// What a parameter's value means.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CostKind {
    /// Time the operation adds when it overlaps with independent work (Saavedra-Barrera's parameters,
    /// measured with independent operand chains).
    Throughput,
    /// Time the operation adds to a chain of dependent statements (region 13, opcost's model
    /// refinement): the `Q...` parameters, measured with one operand chain. `QT..` is the
    /// store-to-load forwarding of a value from one statement to the next.
    Latency,
}

impl Param {
    pub fn mnemonic(self) -> &'static str {
        self.def().mnemonic
    }

    /// The 74 parameters of Saavedra-Barrera's table 4.11.
    pub fn seed() -> impl Iterator<Item = Param> {
        Param::ALL
            .iter()
            .copied()
            .filter(|p| p.def().number as usize <= SEED_COUNT)
    }

    /// Every parameter the characterizer measures: Saavedra-Barrera's 74 and the latencies.
    pub fn measured() -> impl Iterator<Item = Param> {
        Param::ALL.iter().copied().filter(|p| !p.def().derived)
    }

    pub fn cost_kind(self) -> CostKind {
        if self.def().region == Region::LATENCY {
            CostKind::Latency
        } else {
            CostKind::Throughput
        }
    }

    /// The latency parameter of an operation on a type (rule 14), if the catalogue has one.
    pub fn latency(op: Operation, dt: DataType, prec: Precision) -> Option<Param> {
        Param::ALL.iter().copied().find(|p| {
            let d = p.def();
            p.cost_kind() == CostKind::Latency
                && d.operation == op
                && d.data_type == dt
                && d.precision == prec
        })
    }

    /// Look a parameter up by mnemonic, case-insensitively.
    pub fn from_mnemonic(s: &str) -> Option<Param> {
        let up = s.trim().to_ascii_uppercase();
        Param::ALL.iter().copied().find(|p| p.mnemonic() == up)
    }

    /// The parameter for an operation with the given type, precision and storage, if the
    /// catalogue has one.
    pub fn lookup(op: Operation, dt: DataType, prec: Precision, st: StorageClass) -> Option<Param> {
        Param::ALL.iter().copied().find(|p| {
            let d = p.def();
            p.cost_kind() == CostKind::Throughput
                && d.operation == op
                && d.data_type == dt
                && d.precision == prec
                && d.storage == st
        })
    }
}

impl fmt::Display for Param {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.mnemonic())
    }
}

/// One entry of the glossary: a parameter's mnemonic, where it comes from and what it measures.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GlossaryEntry {
    /// Number in Saavedra-Barrera's table 4.11 (1-74), 75-76 derived, from 77 opcost's own.
    pub number: u8,
    pub mnemonic: &'static str,
    pub region: u8,
    pub region_title: &'static str,
    /// `throughput` (an operation beside independent work), `latency` (a link of a
    /// dependence chain) or `derived` (computed from other parameters, not measured).
    pub kind: &'static str,
    pub description: String,
    /// Unit of the parameter's value in a characterization (`ns per operation`, ...).
    pub unit: &'static str,
    /// Where the parameter comes from: Saavedra-Barrera's catalogue or an opcost rule.
    pub origin: &'static str,
}

impl Param {
    /// What one unit of this parameter's count is.
    fn per(self) -> &'static str {
        use Param::*;
        match self {
            PROC => "ns per call",
            AGRS | AGRD | AGIS => "ns per argument",
            ARR1 | ARR2 | ARR3 | ARR4 | ARRN => "ns per reference",
            LOIN | LOIX => "ns per loop entry",
            LOOV | LOOX => "ns per iteration",
            BMIS | BMIR | BMSN => "ns per miss",
            DUMA => "ns per use of a dummy",
            INST => "ns per instruction",
            MEMO => "ns per memory access instruction",
            WIND => "instructions in flight (a count, not a time)",
            CSTA => "ns per store",
            INDX => "ns per call",
            SRDD => "ns per reduced argument",
            MQBD => "ns per quotient bit",
            SCAN => "ns per position scanned",
            SCNM => "ns per miss",
            p if p.cost_kind() == CostKind::Latency => "ns per link",
            _ => "ns per operation",
        }
    }

    /// The catalogue or rule the parameter comes from.
    fn origin(self) -> &'static str {
        use Param::*;
        match self {
            ARR4 | ARRN => "Saavedra-Barrera's section 4.2.4",
            BMIS | BMIR => "rule 15",
            DUMA => "rule 16",
            INST | MEMO => "rule 17",
            CSTA => "rule 18",
            WIND => "rule 19",
            MODS | MODD => "rule 9",
            CABS | CABD => "rule 13a",
            INDX | SCAN => "rule 23",
            SCNM => "rule 23b",
            CHCC => "rule 13b",
            CHAS | CHCM => "rule 13c",
            QFRS | QFRD => "rule 14b",
            BMSN => "rule 24",
            SRDD => "rule 24b",
            MQBD => "rule 9b",
            RNDS | RNDD | QRNS | QRND => "rule 32",
            CNVT | QCNV => "rule 25",
            QADR => "rule 14c",
            QAIC | QAIR => "rule 14d",
            QDOV => "rule 27",
            QMXS | QMXD | QMXI => "rule 14e",
            QTEI => "rule 14f",
            p if p.cost_kind() == CostKind::Latency => "rule 14",
            _ => "Saavedra-Barrera's table 4.11",
        }
    }
}

/// The glossary of every parameter, in the catalogue's order (by number).
pub fn glossary() -> Vec<GlossaryEntry> {
    let mut entries: Vec<GlossaryEntry> = Param::ALL
        .iter()
        .map(|&p| {
            let d = p.def();
            let kind = if d.derived {
                "derived"
            } else if p.cost_kind() == CostKind::Latency {
                "latency"
            } else {
                "throughput"
            };
            let label = d.operation.label();
            let full = d.description();
            let ty = full.trim_start_matches(label);
            let description = match p {
                Param::BMIS => "mispredicted IF branch, integer or logical condition".to_string(),
                Param::BMIR => "mispredicted IF branch, real or double compare".to_string(),
                Param::ARR4 | Param::ARRN => format!("{full} (extrapolated from ARR1-ARR3)"),
                _ if p.cost_kind() == CostKind::Latency => {
                    let ty = ty.trim_end_matches(", local");
                    if d.operation == Operation::MemoryTransfer {
                        format!("store-to-load forwarding on a chain{ty}")
                    } else {
                        format!("{label} on a chain{ty}")
                    }
                }
                _ => full,
            };
            GlossaryEntry {
                number: d.number,
                mnemonic: d.mnemonic,
                region: d.region.0,
                region_title: d.region.title(),
                kind,
                description,
                unit: p.per(),
                origin: p.origin(),
            }
        })
        .collect();
    entries.sort_by_key(|e| e.number);
    entries
}

/// ARR4 and ARRN are linear extrapolations of ARR1..ARR3 (Saavedra-Barrera's section 4.2.4): each further
/// dimension adds what the third added to the second. Returns the coefficients over
/// (ARR1, ARR2, ARR3) for an array of `rank` dimensions.
pub fn array_reference_coefficients(rank: usize) -> [f64; 3] {
    match rank {
        0 => [0.0, 0.0, 0.0],
        1 => [1.0, 0.0, 0.0],
        2 => [0.0, 1.0, 0.0],
        3 => [0.0, 0.0, 1.0],
        n => {
            let extra = (n - 3) as f64;
            [0.0, -extra, 1.0 + extra]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn the_glossary_describes_every_parameter_once_in_number_order() {
        let g = glossary();
        assert_eq!(g.len(), Param::ALL.len());
        for p in Param::ALL {
            assert_eq!(g.iter().filter(|e| e.mnemonic == p.mnemonic()).count(), 1);
        }
        assert!(g.windows(2).all(|w| w[0].number < w[1].number));
        // Every value is a time per operation but WIND's, a count of instructions (rule 19).
        assert!(g
            .iter()
            .all(|e| !e.description.is_empty()
                && (e.unit.starts_with("ns per") || e.mnemonic == "WIND")));
        let qtrs = g.iter().find(|e| e.mnemonic == "QTRS").unwrap();
        assert_eq!(qtrs.kind, "latency");
        assert_eq!(
            qtrs.description,
            "store-to-load forwarding on a chain, real single"
        );
        assert_eq!(
            g.iter().find(|e| e.mnemonic == "ARRN").unwrap().kind,
            "derived"
        );
    }

    #[test]
    fn catalogue_has_74_unique_seed_mnemonics_numbered_in_order() {
        let seed: Vec<_> = Param::seed().collect();
        assert_eq!(seed.len(), SEED_COUNT);
        let names: HashSet<_> = seed.iter().map(|p| p.mnemonic()).collect();
        assert_eq!(names.len(), 74);
        for (i, p) in seed.iter().enumerate() {
            assert_eq!(p.def().number as usize, i + 1, "{p}");
            assert_eq!(p.def().param, *p);
            assert!(!p.def().derived);
            assert_eq!(p.cost_kind(), CostKind::Throughput);
        }
    }

    #[test]
    fn every_parameter_has_a_unique_number_and_mnemonic() {
        let nums: HashSet<_> = Param::ALL.iter().map(|p| p.def().number).collect();
        let names: HashSet<_> = Param::ALL.iter().map(|p| p.mnemonic()).collect();
        assert_eq!(nums.len(), Param::ALL.len());
        assert_eq!(names.len(), Param::ALL.len());
        // Saavedra-Barrera's 74, 30 latencies, BMIS, DUMA, BMIR, INST, CSTA, the four of
        // fmod, WIND, MEMO, the four of CABS, INDEX's two, a function result's two, BMSN,
        // the conversion's two, QADR, the two integer additions of rule 14d, the DO
        // variable's link of rule 27, MIN and MAX on a chain (rule 14e), an integer element
        // on a chain (rule 14f), a double sine's argument reduction (rule 24b), rounding's
        // four (rule 32), INDEX's mispredicted compares (rule 23b), a concatenation (rule
        // 13b), a string's move and compare (rule 13c), fmod's quotient bit (rule 9b).
        assert_eq!(
            Param::measured().count(),
            74 + 30 + 5 + 4 + 1 + 1 + 4 + 2 + 2 + 1 + 2 + 1 + 2 + 1 + 3 + 1 + 1 + 4 + 1 + 1 + 2 + 1
        );
    }

    #[test]
    fn latencies_are_found_apart_from_throughputs() {
        assert_eq!(
            Param::latency(Operation::Add, DataType::Real, Precision::Double),
            Some(Param::QARD)
        );
        assert_eq!(
            Param::lookup(
                Operation::Add,
                DataType::Real,
                Precision::Double,
                StorageClass::Local
            ),
            Some(Param::ARDL)
        );
        assert_eq!(Param::QSNS.cost_kind(), CostKind::Latency);
    }

    #[test]
    fn regions_match_table_4_11() {
        let region_of = |m: &str| Param::from_mnemonic(m).unwrap().def().region.0;
        let expect = [
            ("SRSL", 1),
            ("TRSL", 1),
            ("SRDL", 2),
            ("TRDL", 2),
            ("SISL", 3),
            ("TISL", 3),
            ("SRSG", 4),
            ("SRDG", 5),
            ("SISG", 6),
            ("TISG", 6),
            ("ANDL", 7),
            ("CISG", 7),
            ("PROC", 8),
            ("AGIS", 8),
            ("ARR1", 9),
            ("IADD", 9),
            ("GOTO", 10),
            ("LOOX", 10),
            ("EXPS", 11),
            ("SQRS", 11),
            ("EXPD", 12),
            ("SQRD", 12),
        ];
        for (m, r) in expect {
            assert_eq!(region_of(m), r, "{m}");
        }
        // Regions 1-6 hold seven parameters each, in the same operation order.
        for r in 1..=6u8 {
            let ops: Vec<_> = Param::measured()
                .filter(|p| p.def().region.0 == r)
                .map(|p| p.def().operation)
                .collect();
            assert_eq!(ops.len(), 7);
            assert_eq!(ops[0], Operation::Store);
            assert_eq!(ops[6], Operation::MemoryTransfer);
        }
    }

    #[test]
    fn lookup_finds_by_attributes() {
        assert_eq!(
            Param::lookup(
                Operation::Divide,
                DataType::Real,
                Precision::Double,
                StorageClass::Global
            ),
            Some(Param::DRDG)
        );
        assert_eq!(Param::from_mnemonic("iadd"), Some(Param::IADD));
        assert_eq!(Param::from_mnemonic("XYZW"), None);
    }

    #[test]
    fn derived_array_coefficients_extrapolate_linearly() {
        assert_eq!(array_reference_coefficients(3), [0.0, 0.0, 1.0]);
        assert_eq!(array_reference_coefficients(4), [0.0, -1.0, 2.0]);
        assert_eq!(array_reference_coefficients(6), [0.0, -3.0, 4.0]);
    }
}
