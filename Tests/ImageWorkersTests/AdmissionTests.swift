import Testing

@testable import ImageWorkers

/// Upload admissions shared out by caller: one caller alone takes every place; another still
/// gets one of the reserve while it holds fewer than an equal share.
@Suite struct AdmissionTests {
  @Test func aCallerAloneTakesEveryPlaceAndAnotherStillGetsInFromTheReserve() {
    let admissions = WorkerPool.Admissions(capacity: 8)
    #expect(admissions.reserve == 2)
    for _ in 0..<8 { #expect(admissions.take("flood")) }
    #expect(!admissions.take("flood"), "the reserve is not the flood's")
    #expect(admissions.take("relay"))
    #expect(admissions.take("relay"))
    #expect(!admissions.take("relay"), "the reserve is spent")
    #expect(!admissions.take("third"))
    #expect(admissions.count == 10)
    // Places given back go to whoever asks next, within the same rules.
    admissions.release("flood")
    admissions.release("flood")
    admissions.release("flood")
    #expect(admissions.count == 7)
    #expect(admissions.take("flood"))
    #expect(admissions.take("third"))
    #expect(admissions.take("third"), "below its share, it takes from the reserve")
    #expect(!admissions.take("flood"))
  }

  @Test func anAdmissionGivesItsPlaceBackOnceWhateverHappens() {
    let admissions = WorkerPool.Admissions(capacity: 1)
    #expect(admissions.take("a"))
    let admission = WorkerPool.Admission(admissions, share: "a")
    admission.release()
    admission.release()
    #expect(admissions.count == 0)
    #expect(admissions.take("b"))
  }
}
