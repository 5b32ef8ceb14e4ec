import Mustache

/// The gallery's pages as Mustache templates. `{{x}}` escapes what it
/// writes (every name and title a user typed goes through it); `{{{body}}}`
/// takes a page's own rendered, already-escaped HTML into the frame.
enum WebTemplates {
    static let library: MustacheLibrary = {
        var library = MustacheLibrary()
        for (name, text) in templates {
            // The templates are part of the program: one that does not
            // parse is a build mistake the tests catch at once.
            try! library.register(text, named: name)
        }
        return library
    }()

    static let templates: [String: String] = [
        "frame": """
        <!DOCTYPE html>
        <html lang="{{lang}}">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>{{heading}} · {{t.title}}</title>
        <link rel="stylesheet" href="/gallery/style.css">
        </head>
        <body>
        <header>
        <a class="home" href="/gallery">{{t.title}}</a>
        <nav aria-label="{{t.language}}"><a href="?lang=de" lang="de">Deutsch</a> · <a href="?lang=en" lang="en">English</a></nav>
        {{#account}}
        <form class="signout" method="post" action="/gallery/signout">
        <span class="who">{{name}}</span>
        <input type="hidden" name="form" value="{{formToken}}">
        <button type="submit">{{t.signOut}}</button>
        </form>
        {{/account}}
        </header>
        <main>
        <h1>{{heading}}</h1>
        {{{body}}}
        </main>
        </body>
        </html>
        """,
        "message": """
        <p class="message">{{message}}</p>
        <p><a class="button" href="/gallery">{{t.back}}</a></p>
        """,
        "signIn": """
        {{#error}}<p class="message" role="alert">{{error}}</p>{{/error}}
        <p><a class="button big" href="/gallery/pupil">{{t.iAmAPupil}}</a></p>
        <h2>{{t.teacherSignIn}}</h2>
        <form method="post" action="/gallery/signin">
        <input type="hidden" name="form" value="{{formToken}}">
        <p><label for="name">{{t.name}}</label><br><input id="name" name="name" autocomplete="username" required maxlength="200" value="{{typedName}}"></p>
        <p><label for="password">{{t.password}}</label><br><input id="password" name="password" type="password" autocomplete="current-password" required maxlength="200"></p>
        <p><button type="submit">{{t.signInButton}}</button></p>
        </form>
        """,
        "choices": """
        {{#error}}<p class="message" role="alert">{{error}}</p>{{/error}}
        {{^choices}}<p>{{empty}}</p>{{/choices}}
        <ul class="choices">
        {{#choices}}<li><a class="button big" href="{{href}}"><span class="badge">{{initial}}</span> {{name}}</a></li>
        {{/choices}}
        </ul>
        {{#codeForm}}
        <form method="post" action="/gallery/pupil">
        <input type="hidden" name="form" value="{{formToken}}">
        <p><label for="code">{{t.classCode}}</label><br><input id="code" name="code" required maxlength="40" autocomplete="off"
         autocapitalize="characters"> <button type="submit">{{t.showClass}}</button></p>
        </form>
        {{/codeForm}}
        <p><a href="{{backHref}}">{{t.back}}</a></p>
        """,
        "pictures": """
        {{#error}}<p class="message" role="alert">{{error}}</p>{{/error}}
        <p class="slots" aria-label="{{t.picked}}">{{#slots}}<span class="slot{{#filled}} filled{{/filled}}"></span>{{/slots}}</p>
        <form method="post" class="pictures">
        <input type="hidden" name="form" value="{{formToken}}">
        <input type="hidden" name="chosen" value="{{chosen}}">
        {{#pictures}}<button type="submit" name="pick" value="{{index}}"><img src="/gallery/pictures/{{index}}.png" alt="{{word}}" width="96" height="96"></button>
        {{/pictures}}
        </form>
        <p><a href="{{backHref}}">{{t.startAgain}}</a></p>
        """,
        "sketches": """
        <p class="me">{{#picture}}<img class="avatar" src="/gallery/people/{{picture}}/picture.png" alt="" width="96" height="96">{{/picture}}{{^picture}}<span class="badge">{{initial}}</span>{{/picture}} <strong>{{name}}</strong></p>
        {{^sketches}}<p>{{empty}}</p>{{/sketches}}
        <ul class="sketches">
        {{#sketches}}<li><a href="/gallery/sketches/{{id}}"><img src="/gallery/sketches/{{id}}/thumbnail.png" alt="{{name}}" width="256" loading="lazy"><span>{{name}}</span><small>{{date}}</small></a></li>
        {{/sketches}}
        </ul>
        {{#next}}<p><a class="button big" rel="next" href="{{next}}">{{t.olderSketches}}</a></p>{{/next}}
        <p><a class="button" href="/gallery/me">{{t.myPage}}</a></p>
        """,
        "classes": """
        {{^classes}}<p>{{t.noTeacherClasses}}</p>{{/classes}}
        <ul class="choices">
        {{#classes}}<li><a class="button big" href="/gallery/classes/{{id}}">{{name}}{{#archived}} ({{t.archived}}){{/archived}}</a></li>
        {{/classes}}
        </ul>
        <p><a class="button" href="/gallery/deleted">{{t.deletedSketches}}</a>
        <a class="button" href="/gallery/account">{{t.teacherAccounts}}</a></p>
        """,
        "account": """
        {{#notice}}<p class="message" role="status">{{notice}}</p>{{/notice}}
        <h2>{{t.myPassword}}</h2>
        <form method="post" action="/gallery/account/password">
        <input type="hidden" name="form" value="{{formToken}}">
        <p><label for="current">{{t.currentPassword}}</label><br><input id="current" name="current" type="password" autocomplete="current-password" required maxlength="200"></p>
        <p><label for="new">{{t.newPassword}}</label><br><input id="new" name="new" type="password" autocomplete="new-password" required minlength="8" maxlength="72"></p>
        <p><label for="again">{{t.newPasswordAgain}}</label><br><input id="again" name="again" type="password" autocomplete="new-password" required minlength="8" maxlength="72"></p>
        <p><button type="submit" class="big">{{t.changePassword}}</button></p>
        </form>
        {{#admin}}
        <h2>{{t.teachers}}</h2>
        <ul class="teachers">
        {{#teachers}}<li><span class="badge">{{initial}}</span> {{name}}{{#isAdmin}} ({{t.admin}}){{/isAdmin}}
        {{^isAdmin}}<form method="post" action="/gallery/teachers/{{id}}/password">
        <input type="hidden" name="form" value="{{formToken}}">
        <label for="reset-{{id}}">{{t.newPasswordFor}} {{name}}</label> <input id="reset-{{id}}" name="password" autocomplete="off" required minlength="8" maxlength="72">
        <button type="submit">{{t.setPassword}}</button>
        </form>{{/isAdmin}}</li>
        {{/teachers}}
        </ul>
        <h2>{{t.addTeacher}}</h2>
        <form method="post" action="/gallery/teachers">
        <input type="hidden" name="form" value="{{formToken}}">
        <p><label for="teacher-name">{{t.name}}</label><br><input id="teacher-name" name="name" required maxlength="64" autocomplete="off"></p>
        <p><label for="teacher-password">{{t.firstPassword}}</label><br><input id="teacher-password" name="password" required minlength="8" maxlength="72" autocomplete="off"></p>
        <p><button type="submit" class="big">{{t.addTeacher}}</button></p>
        </form>
        {{/admin}}
        <p><a href="/gallery">{{t.back}}</a></p>
        """,
        "deleted": """
        {{^sketches}}<p>{{t.nothingDeleted}}</p>{{/sketches}}
        <ul class="sketches">
        {{#sketches}}<li><form method="post" action="/gallery/deleted/{{id}}/restore">
        <input type="hidden" name="form" value="{{formToken}}">
        <img src="/gallery/deleted/{{id}}/thumbnail.png" alt="{{name}}" width="256" loading="lazy"><span>{{name}}</span>
        <small>{{t.deletedOn}}: {{date}}</small>
        <button type="submit" class="big">{{t.restore}}</button>
        </form></li>
        {{/sketches}}
        </ul>
        {{#next}}<p><a class="button big" rel="next" href="{{next}}">{{t.olderSketches}}</a></p>{{/next}}
        <p><a href="/gallery">{{t.back}}</a></p>
        """,
        "class": """
        {{#code}}<p class="class-code">{{t.classCode}}: <strong>{{code}}</strong></p>{{/code}}
        <p><a class="button" href="/gallery/classes/{{classID}}/grades.csv">{{t.downloadGrades}}</a>
        <a class="button" href="/gallery/classes/{{classID}}/games.csv">{{t.downloadGames}}</a></p>
        <h2>{{t.tasks}}</h2>
        {{^tasks}}<p>{{t.noTasks}}</p>{{/tasks}}
        <ul class="tasks">
        {{#tasks}}<li><a href="{{href}}">{{title}}</a>{{#due}} <small>{{t.dueOn}} {{due}}</small>{{/due}}</li>
        {{/tasks}}
        </ul>
        {{^pupils}}<p>{{t.noPupils}}</p>{{/pupils}}
        {{#pupils}}
        <section>
        <h2>{{#picture}}<img class="avatar" src="/gallery/people/{{picture}}/picture.png" alt="" width="48" height="48">{{/picture}}{{^picture}}<span class="badge">{{initial}}</span>{{/picture}} <a href="{{href}}">{{name}}</a></h2>
        {{> summary}}
        </section>
        {{/pupils}}
        <p><a href="/gallery">{{t.back}}</a></p>
        """,
        "assignment": """
        <p>{{t.doneBy}} <strong>{{done}}</strong> / {{total}}{{#due}} · {{t.dueOn}} {{due}}{{/due}}</p>
        <p><a class="button" href="{{csvHref}}">{{t.downloadAnswers}}</a></p>
        {{#hasHardest}}<h2>{{t.mostOftenWrong}}</h2>
        <ul class="hardest">{{#hardest}}<li><strong>{{question}}</strong> {{wrong}} / {{answered}}</li>{{/hardest}}</ul>{{/hasHardest}}
        <table class="answers">
        <tr><th scope="col">{{t.pupil}}</th><th scope="col">{{t.doneColumn}}</th>{{#maths}}<th scope="col">{{t.rightAnswers}}</th><th scope="col">{{t.seconds}}</th><th scope="col">{{t.wrongAnswers}}</th>{{/maths}}</tr>
        {{#rows}}<tr><th scope="row">{{name}}</th><td>{{#done}}✓{{/done}}{{^done}}{{t.notYet}}{{/done}}{{#sketch}} <a href="/gallery/sketches/{{sketch}}">{{t.openSketch}}</a>{{/sketch}}</td>{{#maths}}{{#done}}<td>{{right}} / {{asked}}</td><td>{{seconds}}</td><td>{{#wrong}}<span class="wrong">{{question}} <del>{{given}}</del></span> {{/wrong}}</td>{{/done}}{{^done}}<td></td><td></td><td></td>{{/done}}{{/maths}}</tr>
        {{/rows}}
        </table>
        <p><a href="{{backHref}}">{{t.back}}</a></p>
        """,
        "summary": """
        {{^sketches}}<p>{{t.noPupilSketches}}</p>{{/sketches}}
        <ul class="sketches">
        {{#sketches}}<li><a href="/gallery/sketches/{{id}}"><img src="/gallery/sketches/{{id}}/thumbnail.png" alt="{{name}}" width="256" loading="lazy"><span>{{name}}</span><small>{{date}}</small></a></li>
        {{/sketches}}
        </ul>
        {{#next}}<p><a class="button big" rel="next" href="{{next}}">{{nextText}}</a></p>{{/next}}
        <h3>{{t.grades}}</h3>
        {{^grades}}<p>{{t.noGrades}}</p>{{/grades}}
        <ul class="grades">
        {{#grades}}<li><span class="grade">{{t.grade}} {{grade}}</span> {{work}}{{#team}} ({{t.forTeam}}){{/team}}{{#comment}}: <q>{{comment}}</q>{{/comment}}
        {{#hasEarlier}}<details><summary>{{t.earlierGrades}}</summary><ul class="earlier">
        {{#earlier}}<li>{{at}}: <span class="grade">{{t.grade}} {{grade}}</span>{{#comment}}: <q>{{comment}}</q>{{/comment}}</li>
        {{/earlier}}
        </ul></details>{{/hasEarlier}}</li>
        {{/grades}}
        </ul>
        {{#game}}
        <h3>{{t.game}}</h3>
        <table class="game">
        <tr><th scope="row">{{t.rounds}}</th><td>{{rounds}}</td></tr>
        <tr><th scope="row">{{t.wordsFinished}}</th><td>{{finished}}</td></tr>
        <tr><th scope="row">{{t.secondsPerWord}}</th><td>{{secondsPerWord}}</td></tr>
        <tr><th scope="row">{{t.lettersSent}}</th><td>{{sent}}</td></tr>
        <tr><th scope="row">{{t.lettersReceived}}</th><td>{{received}}</td></tr>
        <tr><th scope="row">{{t.wrongPlacements}}</th><td>{{wrong}}</td></tr>
        </table>
        {{/game}}
        """,
        "progress": """
        <h3>{{t.gameOverTime}}</h3>
        {{^progress}}<p>{{t.noRounds}}</p>{{/progress}}
        {{#hasProgress}}
        <table class="progress">
        <tr><th scope="col">{{t.weekOf}}</th><th scope="col">{{t.rounds}}</th><th scope="col" colspan="2">{{t.wordsFinished}}</th><th scope="col">{{t.secondsPerWord}}</th><th scope="col">{{t.wrongPlacements}}</th></tr>
        {{/hasProgress}}
        {{#progress}}<tr><td>{{week}}</td><td>{{rounds}}</td><td>{{finished}}</td><td><meter min="0" max="{{scale}}" value="{{finished}}">{{finished}}</meter></td><td>{{secondsPerWord}}</td><td>{{wrong}}</td></tr>
        {{/progress}}
        {{#hasProgress}}
        </table>
        {{/hasProgress}}
        """,
        "pupil": """
        <p class="me">{{#picture}}<img class="avatar" src="/gallery/people/{{picture}}/picture.png" alt="" width="96" height="96">{{/picture}}{{^picture}}<span class="badge">{{initial}}</span>{{/picture}}</p>
        {{> summary}}
        {{> progress}}
        <p><a class="button" href="{{exportHref}}">{{t.downloadPupilData}}</a></p>
        <p><a href="{{backHref}}">{{t.back}}</a></p>
        """,
        "profile": """
        <p class="me">{{#picture}}<img class="avatar" src="/gallery/people/{{picture}}/picture.png" alt="" width="192" height="192">{{/picture}}{{^picture}}<span class="badge">{{initial}}</span>{{/picture}} <strong>{{name}}</strong></p>
        <table class="game">
        {{#classes}}<tr><th scope="row">{{t.myClass}}</th><td>{{classes}}</td></tr>{{/classes}}
        <tr><th scope="row">{{t.sketchCount}}</th><td>{{sketchCount}}</td></tr>
        </table>
        {{#game}}
        <h2>{{t.game}}</h2>
        <table class="game">
        <tr><th scope="row">{{t.rounds}}</th><td>{{rounds}}</td></tr>
        <tr><th scope="row">{{t.wordsFinished}}</th><td>{{finished}}</td></tr>
        <tr><th scope="row">{{t.secondsPerWord}}</th><td>{{secondsPerWord}}</td></tr>
        </table>
        {{/game}}
        {{#hasFeedback}}<h2>{{t.teacherSays}}</h2>{{/hasFeedback}}
        {{#feedback}}
        <div class="feedback">
        <p>{{#href}}<a href="{{href}}">{{work}}</a>{{/href}}{{^href}}{{work}}{{/href}}{{#team}} <small>({{team}})</small>{{/team}}</p>
        {{#grade}}<p class="stars" aria-label="{{t.grade}} {{grade}}">{{stars}}<span class="unstarred">{{unstarred}}</span> <small>{{t.grade}} {{grade}}</small></p>{{/grade}}
        {{#comment}}<p class="said">{{comment}}</p>{{/comment}}
        </div>
        {{/feedback}}
        {{> progress}}
        <p><a href="/gallery">{{t.back}}</a></p>
        """,
        "sketch": """
        <p><small>{{t.createdOn}} {{date}}</small></p>
        <p><img class="full" src="/gallery/sketches/{{id}}/image.png" alt="{{name}}"></p>
        <p><a class="button" href="/gallery/sketches/{{id}}/image.png?download=1" download>{{t.downloadPNG}}</a>
        <a class="button" href="/gallery/sketches/{{id}}/sketch.pdf">{{t.downloadPDF}}</a></p>
        <p><a href="/gallery">{{t.back}}</a></p>
        """,
    ]

    static let style = """
    .feedback { border-left: 6px solid #f2b705; padding: 4px 16px; margin: 12px 0; background: #fff; }
    .feedback .stars { font-size: 2em; color: #f2b705; margin: 4px 0; }
    .feedback .stars .unstarred { color: #d8cfbd; }
    .feedback .said { font-size: 1.3em; }
    body { font-family: "DejaVu Sans", sans-serif; background: #fbf8f2; color: #2e3436; margin: 0; }
    header { display: flex; gap: 24px; align-items: center; padding: 12px 24px; background: #efe9dd; flex-wrap: wrap; }
    header .home { font-weight: bold; font-size: 1.3em; color: #2b2b6e; text-decoration: none; }
    header nav { margin-left: auto; }
    .signout { display: flex; gap: 12px; align-items: center; }
    main { padding: 12px 24px 48px; }
    h1 { color: #2b2b6e; }
    a.button, button { display: inline-block; min-height: 48px; min-width: 48px; padding: 10px 18px; border-radius: 10px;
      border: 1px solid #c8c2b8; background: #fff; color: #2e3436; font-size: 1em; text-decoration: none; box-sizing: border-box; }
    a.big { font-size: 1.3em; }
    input { font-size: 1.1em; padding: 8px; min-height: 44px; box-sizing: border-box; }
    .message { color: #a51d2d; font-weight: bold; }
    ul.choices, ul.sketches { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 16px; }
    ul.sketches a { display: flex; flex-direction: column; gap: 4px; color: #2e3436; text-decoration: none; }
    ul.sketches img { background: #fff; border: 1px solid #ddd; }
    .badge { display: inline-block; width: 40px; height: 40px; line-height: 40px; border-radius: 20px; background: #8f5a2b;
      color: #fff; text-align: center; font-weight: bold; }
    .pictures { display: grid; grid-template-columns: repeat(3, 120px); gap: 12px; }
    .pictures button { width: 120px; height: 120px; padding: 8px; }
    .slots { display: flex; gap: 12px; }
    .slot { display: inline-block; width: 48px; height: 48px; border-radius: 24px; background: #e8f0ff; border: 2px solid #9ab; }
    .slot.filled { background: #3584e4; }
    .grade { display: inline-block; padding: 2px 8px; border-radius: 6px; background: #2b2b6e; color: #fff; }
    table.game th { text-align: left; padding-right: 16px; font-weight: normal; }
    table.progress { border-collapse: collapse; }
    table.progress th, table.progress td { text-align: left; padding: 4px 12px 4px 0; }
    table.progress meter { width: 160px; height: 20px; }
    img.avatar { border-radius: 12px; background: #fff; border: 1px solid #ddd; vertical-align: middle; }
    .me { display: flex; gap: 16px; align-items: center; font-size: 1.3em; }
    img.full { max-width: 100%; height: auto; background: #fff; border: 1px solid #ddd; }
    """
}
