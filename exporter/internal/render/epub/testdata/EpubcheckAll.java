// EpubcheckAll checks each EPUB named on its command line with epubcheck,
// in one JVM: TestEpubcheck (tools_test.go) runs it with java's source
// launcher and epubcheck.jar on the class path, where a JVM per book cost
// about 4 CPU-seconds each. Before each book it prints
// "curex-epubcheck begin PATH", after it "curex-epubcheck end CODE" (the
// exit code epubcheck's command line would give), and epubcheck's
// messages between, all on standard error so that they keep their order.
public class EpubcheckAll {
  public static void main(String[] args) {
    System.setOut(System.err);
    for (String path : args) {
      System.err.println("curex-epubcheck begin " + path);
      // -q: only the messages; -w: warnings fail too.
      int code = new com.adobe.epubcheck.tool.EpubChecker().run(new String[] {path, "-q", "-w"});
      System.err.println("curex-epubcheck end " + code);
    }
  }
}
