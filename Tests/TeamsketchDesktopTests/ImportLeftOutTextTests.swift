import LearnModel
import Testing
@testable import TeamsketchDesktop
@testable import TeamsketchDesktopApp

/// The sentence after an import, in English (no catalogue is bound in tests;
/// the German forms are in po/de.po and checked by `make i18n-check`).
@Suite struct ImportLeftOutTextTests {
    @Test func nothingLeftOutSaysNothing() {
        #expect(ImportLeftOutText.sentence(.nothing) == nil)
    }

    @Test func oneThingOfOneKindIsSingular() {
        #expect(ImportLeftOutText.sentence(ImportLeftOut(images: 1)) == "1 image was not imported.")
    }

    @Test func manyOfOneKindArePlural() {
        #expect(ImportLeftOutText.sentence(ImportLeftOut(texts: 3)) == "3 text boxes were not imported.")
    }

    @Test func twoKindsAreJoinedWithAnd() {
        #expect(ImportLeftOutText.sentence(ImportLeftOut(texts: 2, images: 1))
                == "2 text boxes and 1 image were not imported.")
        #expect(ImportLeftOutText.sentence(ImportLeftOut(texts: 1, images: 1))
                == "1 text box and 1 image were not imported.")
    }

    @Test func everyKindInOneSentenceAndUnknownColoursInAnother() {
        let all = ImportLeftOut(pages: 2, texts: 1, images: 3, texFormulas: 1, unknownColors: 1)
        #expect(ImportLeftOutText.sentence(all) == "1 text box, 3 images, 1 TeX formula "
                + "and 2 more pages were not imported. 1 stroke of an unknown colour was drawn in black.")
        #expect(ImportLeftOutText.sentence(ImportLeftOut(unknownColors: 2))
                == "2 strokes of an unknown colour were drawn in black.")
    }

    /// Strokes Xournal++ mends (points of no pressure) are named too.
    @Test func mendedPressureStrokesAreNamed() {
        #expect(ImportLeftOutText.sentence(ImportLeftOut(mendedPressure: 1))
                == "1 stroke had points without pressure; those points were left out, as Xournal++ does.")
        #expect(ImportLeftOutText.sentence(ImportLeftOut(images: 1, mendedPressure: 3))
                == "1 image was not imported. 3 strokes had points without pressure; those points were left out, "
                + "as Xournal++ does.")
    }
}
