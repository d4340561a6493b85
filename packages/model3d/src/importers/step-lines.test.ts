import { describe, expect, it } from 'vitest';
import { convertToGlb } from '../convert.ts';
import { ifcWallAndDoor } from '../fixtures/ifc.ts';
import { StepLines, StepSyntaxError } from './step-lines.ts';

const enc = (s: string) => new TextEncoder().encode(s);
const file = (...data: string[]) => enc(['ISO-10303-21;', 'HEADER;', "FILE_SCHEMA(('IFC4'));", 'ENDSEC;', 'DATA;', ...data, 'ENDSEC;', 'END-ISO-10303-21;'].join('\n'));

describe('our STEP line reader (step-lines.ts)', () => {
  it('indexes the lines by id and type and decodes references, nested lists, $, *, enumerations, numbers and typed values', () => {
    const lines = new StepLines(
      file(
        "#1=IFCPROJECT('0YvctVUKr0kugbFTf53O9L',$,'House',$,$,$,$,(#20),#10);",
        '#10=IFCUNITASSIGNMENT((#11,#12));',
        '#11=IFCSIUNIT(*,.LENGTHUNIT.,$,.METRE.);',
        '#12=IfcCartesianPointList3D(((0.,1.E-05,-2.5),(3,+4,5.5E2)));',
        "#13=IFCPROPERTYSINGLEVALUE('IsExternal',$,IFCBOOLEAN(.T.),$);",
        '#14=IFCRELAGGREGATES($,$,$,$,#1,(#11, #12 ,#13));',
        '#15=IFCSOMETHING(IFCLABEL(IFCTEXT(\'x\')),"0FF",());',
      ),
    );
    expect(lines.size).toBe(7);
    expect(lines.ids('IFCRELAGGREGATES')).toEqual([14]);
    // a type written in lower case is found by its upper-case name
    expect(lines.ids('IfcCartesianPointList3D')).toEqual([12]);
    expect(lines.type(11)).toBe('IFCSIUNIT');
    expect(lines.type(2)).toBeNull();
    expect(lines.get(2)).toBeNull();
    expect(lines.get(1)).toEqual(['0YvctVUKr0kugbFTf53O9L', null, 'House', null, null, null, null, [{ ref: 20 }], { ref: 10 }]);
    expect(lines.get(11)).toEqual([null, { enum: 'LENGTHUNIT' }, null, { enum: 'METRE' }]);
    expect(lines.get(12)).toEqual([[[0, 0.00001, -2.5], [3, 4, 550]]]);
    expect(lines.get(13)).toEqual(['IsExternal', null, { type: 'IFCBOOLEAN', value: { enum: 'T' } }, null]);
    expect(lines.get(14)).toEqual([null, null, null, null, { ref: 1 }, [{ ref: 11 }, { ref: 12 }, { ref: 13 }]]);
    expect(lines.get(15)).toEqual([{ type: 'IFCLABEL', value: { type: 'IFCTEXT', value: 'x' } }, '0FF', []]);
  });

  it("strings: '' and \\\\, the \\S\\, \\X\\, \\X2\\ and \\X4\\ escapes, raw UTF-8, and ; ) /* inside strings", () => {
    const lines = new StepLines(
      file(
        "#1=IFCLABEL('it''s a \\\\ back');",
        "#2=IFCLABEL('caf\\X\\E9 \\S\\a \\PA\\x');",
        "#3=IFCLABEL('\\X2\\4E2D6587\\X0\\ and \\X2\\D83DDE00\\X0\\');",
        "#4=IFCLABEL('\\X4\\0001F600\\X0\\!');",
        "#5=IFCLABEL('Ü-Wand 中');",
        "#6=IFCLABEL('a;b)c/*d''');",
        "#7=IFCLABEL('');",
      ),
    );
    expect(lines.get(1)).toEqual(["it's a \\ back"]);
    expect(lines.get(2)).toEqual(['café á x']);
    expect(lines.get(3)).toEqual(['中文 and 😀']);
    expect(lines.get(4)).toEqual(['😀!']);
    expect(lines.get(5)).toEqual(['Ü-Wand 中']);
    expect(lines.get(6)).toEqual(["a;b)c/*d'"]);
    expect(lines.get(7)).toEqual(['']);
  });

  it('lines over several text lines, comments and spaces between tokens', () => {
    const lines = new StepLines(file('/* a comment; with #2=X(); */', '#1 = IFCWALL(', "  'a', /* inline */ $,", '  (#2)) ;', '#2=IFCX(1);'));
    expect(lines.ids('IFCWALL')).toEqual([1]);
    expect(lines.get(1)).toEqual(['a', null, [{ ref: 2 }]]);
    expect(lines.get(2)).toEqual([1]);
  });

  it("the DATA section is the statement's, not the word in a header string; edition 3's several DATA sections are all read", () => {
    const text = [
      'ISO-10303-21;', 'HEADER;', "FILE_DESCRIPTION(('see DATA; below'),'2;1');", "FILE_NAME('DATA','',(''),(''),'','','');", 'ENDSEC;',
      "DATA('one',('IFC4'));", "#1=IFCA('x');", 'ENDSEC;', 'DATA ;', '#2=IFCB(#1);', 'ENDSEC;', 'END-ISO-10303-21;',
    ].join('\n');
    const lines = new StepLines(enc(text));
    expect(lines.size).toBe(2);
    expect(lines.get(1)).toEqual(['x']);
    expect(lines.get(2)).toEqual([{ ref: 1 }]);
  });

  it('sparse ids (far apart) are found as well as dense ones', () => {
    const lines = new StepLines(file('#5=IFCA(1);', '#900000000=IFCB(#5);'));
    expect(lines.get(900000000)).toEqual([{ ref: 5 }]);
    expect(lines.type(5)).toBe('IFCA');
  });

  it('malformed input: a clear StepSyntaxError naming the line, found when the line is read', () => {
    const bad = (line: string, id = 1) => {
      const lines = new StepLines(file(line));
      try {
        lines.get(id);
      } catch (e) {
        expect(e).toBeInstanceOf(StepSyntaxError);
        return (e as Error).message;
      }
      throw new Error(`${line} was read without an error`);
    };
    expect(bad("#1=IFCLABEL('a',);")).toMatch(/^line #1: unexpected '\)'/);
    expect(bad('#1=IFCX(1 2);')).toMatch(/^line #1: expected ',' or '\)' in a list/);
    expect(bad('#1=IFCX(1.2.3.4);')).toMatch(/^line #1: not a number: 1\.2\.3\.4/);
    expect(bad('#1=IFCX(.T);')).toMatch(/^line #1: (an enumeration is not closed|not an enumeration)/);
    expect(bad("#1=IFCX('\\X2\\4E2\\X0\\');")).toMatch(/partial character/);
    expect(bad("#1=IFCX('\\X2\\ZZZZ\\X0\\');")).toMatch(/bad hex digit/);
    expect(bad("#1=IFCX('\\Q\\');")).toMatch(/unknown escape/);
    expect(bad('#1=IFCX(#);')).toMatch(/'#' without an id/);
    expect(bad('#1=IFCX(IFCLABEL(1,2));')).toMatch(/holds 2 values, not one/);
    // the index itself: an unclosed string, a missing ';', no '=', no ENDSEC
    expect(() => new StepLines(file("#1=IFCX('open);"))).toThrow(/line #1: (a string is not closed|the instance has no closing ;)/);
    expect(() => new StepLines(file('#1 IFCX(1);'))).toThrow(/expected '=' after #1/);
    expect(() => new StepLines(file('IFCX(1);'))).toThrow(/expected '#' at the start of an instance/);
    expect(() => new StepLines(enc('ISO-10303-21;\nDATA;\n#1=IFCX(1);'))).toThrow(/no ENDSEC/);
    expect(() => new StepLines(enc('ISO-10303-21;\nHEADER;\nENDSEC;'))).toThrow(/no DATA section/);
  });

  it('an IFC whose property line is malformed ends as bad input naming the line', async () => {
    const text = ifcWallAndDoor().replace("#312=IFCPROPERTYSINGLEVALUE('FireRating',$,IFCLABEL('EI 60'),$);", "#312=IFCPROPERTYSINGLEVALUE('FireRating',$,IFCLABEL('EI 60' 'x'),$);");
    await expect(convertToGlb(enc(text), 'bad.ifc')).rejects.toMatchObject({ kind: 'bad-input', message: expect.stringMatching(/line #312/) });
  });

  it('a relation aggregating itself and a cycle of aggregations are read once: the conversion ends as bad input', async () => {
    // the storey aggregates the building that aggregates it, and the site aggregates itself; decoding never follows a
    // reference, the tree is walked once per entity
    const text = ifcWallAndDoor()
      .replace('#62=IFCRELAGGREGATES', "#64=IFCRELAGGREGATES('0000000000000000000099',$,$,$,#50,(#40));\n#65=IFCRELAGGREGATES('0000000000000000000098',$,$,$,#30,(#30));\n#62=IFCRELAGGREGATES");
    const lines = new StepLines(enc(text));
    expect(lines.get(64)).toEqual(['0000000000000000000099', null, null, null, { ref: 50 }, [{ ref: 40 }]]);
    const started = performance.now();
    await expect(convertToGlb(enc(text), 'cycle.ifc')).rejects.toMatchObject({ kind: 'bad-input', message: expect.stringMatching(/cyclic/) });
    expect(performance.now() - started).toBeLessThan(30_000);
  });
});
