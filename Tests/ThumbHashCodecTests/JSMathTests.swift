import Testing

@testable import ThumbHashCodec

/// The JavaScript number semantics the codec depends on.
@Suite struct JSMathTests {
  /// (argument, V8 `Math.cos(argument)`) as bit patterns, recorded with Node. Each is an
  /// argument where glibc's `cos` gives a different double, so a platform cosine fails here.
  static let cosines: [(UInt64, UInt64)] = [
    (0x4038_0fe0_e800_0000, 0x3fde_b011_4a44_4eb6),  // cos(24.062025547027588)
    (0xc022_07bf_4000_0000, 0xbfed_5a34_c42f_0c08),  // cos(-9.015130996704102)
    (0x4036_d97a_0400_0000, 0xbfe4_eae2_1dab_17b8),  // cos(22.849518060684204)
    (0xc000_9181_0000_0000, 0xbfde_b282_73d9_f10a),  // cos(-2.071046829223633)
    (0x4034_d239_e400_0000, 0xbfd8_f8f5_4dd8_3d7a),  // cos(20.82119584083557)
    (0x408c_6391_8f00_0000, 0xbfeb_ad75_e3da_4643),  // cos(908.4460735321045)
    (0x4073_b296_9680_0000, 0x3fe1_38ea_18c3_0318),  // cos(315.1617646217346)
    (0x4081_8ba2_6600_0000, 0xbfe4_1f1e_b0c0_52c2),  // cos(561.4542961120605)
    (0x4113_7f82_b0d0_0000, 0x3fe8_d711_49bc_e3d4),  // cos(319456.67266845703)
    (0xc10a_e097_e280_0000, 0xbfec_9c22_e830_7c41),  // cos(-220178.98559570312)
    (0xc127_f3fd_8148_0000, 0x3fe7_47fc_df26_27fa),  // cos(-784894.7525024414)
    (0xbfaa_b655_4620_4c4c, 0x3fef_f4da_78fa_7368),  // cos(-0.05217234116585043)
    (0x3fe1_ae42_dbbd_ee52, 0x3feb_3d0f_31fa_c3f3),  // cos(0.5525221149286585)
    (0xbfe7_6989_45fd_f0ad, 0x3fe7_cf8a_55d9_06d2),  // cos(-0.7316328398733468)
    (0x3fc6_7d08_6f3f_ecd3, 0x3fef_81e4_8a71_5254),  // cos(0.17569070274462337)
    (0x3fd1_7f1b_81dc_6318, 0x3fee_cfc6_1e07_9910),  // cos(0.2733830230877614)
    (0x3fe8_e0fd_f653_00ae, 0x3fe6_ce64_01c3_e7b6),  // cos(0.7774648486156559)
    (0x4016_97bd_29b5_1da5, 0x3fe9_c322_45a5_7fec),  // cos(5.648182536773139)
    (0x4016_3e12_e804_0412, 0x3fe8_00e8_ee0d_c5de),  // cos(5.560618996853934)
    (0x4024_50cd_4a83_e8b7, 0xbfe7_c7d7_a833_becc),  // cos(10.157816246606997)
    (0x4000_5616_905f_83b6, 0xbfdd_0e2e_2b44_de00),  // cos(2.0420352248333655)
  ]

  @Test func cosineMatchesV8WhereGlibcDoesNot() {
    for (argument, expected) in Self.cosines {
      let x = Double(bitPattern: argument)
      #expect(FDLibm.cos(x).bitPattern == expected, "cos(\(x))")
    }
  }

  @Test func cosineEdgeCases() {
    #expect(FDLibm.cos(0) == 1)
    #expect(FDLibm.cos(-0.0) == 1)
    #expect(FDLibm.cos(1e-300) == 1)
    #expect(FDLibm.cos(.pi) == -1)
    #expect(FDLibm.cos(.nan).isNaN)
    #expect(FDLibm.cos(.infinity).isNaN)
    #expect(FDLibm.cos(-.infinity).isNaN)
    // Beyond the medium reduction range the function refuses rather than guesses.
    #expect(FDLibm.cos(1e300).isNaN)
    // Even function, exactly.
    for x in stride(from: 0.0, to: 30, by: 0.37) {
      #expect(FDLibm.cos(x).bitPattern == FDLibm.cos(-x).bitPattern)
    }
  }

  @Test(arguments: [
    (0.5, 1.0), (-0.5, -0.0), (2.5, 3.0), (-2.5, -2.0), (1.4999999999999998, 1.0),
    (0.49999999999999994, 0.0), (-0.49999999999999994, -0.0),
    (4503599627370497.0, 4503599627370497.0),
    (-1.5, -1.0), (62.5, 63.0), (0.0, 0.0), (-0.0, -0.0), (7.0, 7.0),
  ])
  func roundIsJavaScriptRound(input: Double, expected: Double) {
    let rounded = JSMath.round(input)
    #expect(rounded == expected)
    #expect(rounded.sign == expected.sign)
  }

  @Test func ceilKeepsNegativeZero() {
    #expect(JSMath.ceil(-0.3).sign == .minus)
    #expect(JSMath.ceil(-0.3) == 0)
    #expect(JSMath.ceil(0.3) == 1)
    #expect(JSMath.ceil(-1.5) == -1)
    #expect(JSMath.ceil(1e300) == 1e300)
    #expect(JSMath.ceil(.nan).isNaN)
  }

  @Test func maxAndMinFollowJavaScript() {
    #expect(JSMath.max(0, .nan).isNaN)
    #expect(JSMath.max(.nan, 0).isNaN)
    #expect(JSMath.min(1, .nan).isNaN)
    #expect(JSMath.max(0, -0.0).sign == .plus)
    #expect(JSMath.max(-0.0, 0).sign == .plus)
    #expect(JSMath.min(0, -0.0).sign == .minus)
    #expect(JSMath.min(-0.0, 0).sign == .minus)
    #expect(JSMath.max(2, 3) == 3)
    #expect(JSMath.min(2, 3) == 2)
  }

  @Test func conversionsTruncateLikeJavaScript() {
    // The decoder's store: max(0, 255 * min(1, x)) into a Uint8Array.
    #expect(JSMath.unitToByte(254.99 / 255) == 254)
    #expect(JSMath.unitToByte(0.99 / 255) == 0)
    #expect(JSMath.unitToByte(1.0 / 255) == 1)
    #expect(JSMath.unitToByte(0.9999999999999999) == 254)
    #expect(JSMath.unitToByte(1) == 255)
    #expect(JSMath.unitToByte(7.5) == 255)
    #expect(JSMath.unitToByte(-0.0) == 0)
    #expect(JSMath.unitToByte(-3) == 0)
    #expect(JSMath.unitToByte(.nan) == 0)
    #expect(JSMath.toInt(-3.7) == -3)
    #expect(JSMath.toInt(3.7) == 3)
    #expect(JSMath.toInt(.nan) == 0)
    #expect(JSMath.toInt(.infinity) == 0)
    #expect(JSMath.roundToInt(-0.5) == 0)
  }
}
